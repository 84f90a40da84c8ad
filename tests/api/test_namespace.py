"""`dir(tf)` holds TensorFlow's names and nothing of ours (the implementation lives in eagerflow/_src).

Python sets a package's attribute for every submodule it imports, so before the move an internal import
anywhere (`eagerflow.ops.math`) made `tf.ops` appear, and the internal `eagerflow.autograph` package could
shadow the public `tf.autograph`. The check runs in a fresh interpreter after a workload that imports
the lazily loaded parts (AutoGraph, codegen, tf.data, Keras fit, SavedModel, summaries).
"""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

# The top-level public names eagerflow exports today. A new name must be one TensorFlow 2.21 has
# (checked below against its list) and is added here on purpose.
EXPECTED = set("""
    Assert DType GradientTape IndexedSlices Module Tensor TensorArray TensorShape TensorSpec
    UnconnectedGradients Variable VariableAggregation VariableSynchronization abs acos acosh add add_n
    argmax argmin argsort as_dtype as_string asin asinh assert_equal assert_greater assert_less assert_rank atan
    atan2 atanh autograph bool boolean_mask broadcast_to case cast clip_by_global_norm clip_by_norm
    clip_by_value complex128 complex64 concat cond config constant convert_to_tensor cos cosh cumsum
    custom_gradient data debugging device divide double dtypes einsum equal errors executing_eagerly exp
    expand_dims eye fill float16 float32 float64 floor foldl foldr function gather gather_nd
    get_current_name_scope gradients greater greater_equal half identity image init_scope int16 int32
    int64 int8 io is_tensor keras less less_equal linalg linspace logical_and logical_not logical_or map_fn
    math matmul maximum minimum multiply name_scope negative nest newaxis nn norm not_equal one_hot ones
    ones_like pad pow print random range rank recompute_grad reduce_all reduce_any reduce_logsumexp
    reduce_max reduce_mean reduce_min reduce_prod reduce_sum reshape resource reverse round saved_model
    scalar_mul scan scatter_nd shape sigmoid sign sin sinh size slice sort split sqrt square squeeze strings
    stack stop_gradient strided_slice string subtract summary switch_case tan tanh tensordot test tile
    train transpose truediv uint16 uint32 uint64 uint8 unstack variant vectorized_map version where
    while_loop zeros zeros_like
    meshgrid repeat tensor_scatter_nd_add tensor_scatter_nd_max tensor_scatter_nd_min tensor_scatter_nd_sub
    tensor_scatter_nd_update unique unique_with_counts numpy_function py_function
    reverse_sequence roll sequence_mask searchsorted broadcast_dynamic_shape broadcast_static_shape
    ensure_shape get_static_value shape_n unravel_index realdiv saturate_cast truncatediv truncatemod
    dynamic_partition dynamic_stitch histogram_fixed_width control_dependencies group inside_function
    no_op timestamp tuple constant_initializer ones_initializer random_normal_initializer
    random_uniform_initializer zeros_initializer hessians identity_n get_logger bitcast sets bitwise complex lookup
    parallel_stack
    histogram_fixed_width_bins AggregationMethod grad_pass_through is_symbolic_tensor eig eigvals matrix_square_root
    compat losses metrics optimizers initializers space_to_batch_nd space_to_batch batch_to_space
    required_space_to_batch_paddings edit_distance audio
    signal
    fingerprint
    SparseTensor SparseTensorSpec sparse RaggedTensor RaggedTensorSpec ragged IndexedSlicesSpec
    bfloat16
    distribute
    experimental
""".split())

TF_NAMES = {line for line in (Path(__file__).parent / "tensorflow_2_21_top_level_names.txt").read_text().split()
            if not line.startswith("#")} - {"#"}

WORKLOAD = textwrap.dedent("""
    import json, os, sys, tempfile
    import numpy as np
    import eagerflow as tf
    from eagerflow import keras

    @tf.function
    def f(x):
        total = tf.constant(0.0)
        for i in tf.range(3):
            if x[i] > 0:
                total += x[i]
        tf.print(total, output_stream=sys.stderr)
        return total

    assert float(f(tf.constant([1.0, -2.0, 3.0]))) == 4.0
    ds = tf.data.Dataset.from_tensor_slices(np.arange(8.0, dtype=np.float32)).map(lambda v: v * 2).batch(4)
    assert [b.numpy().tolist() for b in ds] == [[0.0, 2.0, 4.0, 6.0], [8.0, 10.0, 12.0, 14.0]]
    with tf.GradientTape() as tape:
        w = tf.Variable(2.0)
        y = w * w
    assert float(tape.gradient(y, w)) == 4.0
    model = keras.Sequential([keras.layers.Dense(3, activation="relu"), keras.layers.Dense(2)])
    model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.fit(np.ones((4, 5), np.float32), np.array([0, 1, 0, 1]), epochs=1, verbose=0)
    with tempfile.TemporaryDirectory() as d:
        m = tf.Module()
        m.v = tf.Variable(1.0)
        m.f = tf.function(lambda x: x + m.v, input_signature=[tf.TensorSpec([], tf.float32)])
        tf.saved_model.save(m, os.path.join(d, "m"))
        assert float(tf.saved_model.load(os.path.join(d, "m")).f(tf.constant(1.0))) == 2.0
        writer = tf.summary.create_file_writer(os.path.join(d, "logs"))
        with writer.as_default():
            tf.summary.scalar("loss", 0.5, step=1)
        writer.flush()
    print(json.dumps(sorted(n for n in dir(tf) if not n.startswith("_"))))
""")


def _public_names_after_workload(tmp_path):
    script = tmp_path / "workload.py"  # a file, so AutoGraph can read the function's source
    script.write_text(WORKLOAD)
    root = str(Path(__file__).resolve().parents[2])  # this checkout's eagerflow, whatever is installed
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                          cwd=root, env=env)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_top_level_names_are_exactly_the_exported_tensorflow_names(tmp_path):
    names = _public_names_after_workload(tmp_path)
    assert sorted(names - EXPECTED) == [], "unexpected public names in dir(tf)"
    assert sorted(EXPECTED - names) == [], "exported names missing from dir(tf)"


def test_every_exported_name_is_a_tensorflow_name():
    assert len(TF_NAMES) > 300 and "function" in TF_NAMES and "GradientTape" in TF_NAMES
    assert sorted(EXPECTED - TF_NAMES) == []


def test_internal_packages_are_not_attributes_of_tf():
    import eagerflow as tf
    import eagerflow._src.ops.math.elementwise  # noqa: F401  (an internal import must not create tf.ops)
    for name in ("ops", "core", "trace", "graph", "passes", "codegen", "control_flow", "state", "api"):
        assert not hasattr(tf, name), name
    assert tf.autograph.__name__ == "eagerflow._src.api.autograph"
    assert tf.data.__name__ == "eagerflow._src.api.data"
    assert not hasattr(tf, "autodiff")  # TensorFlow's tf.autodiff (ForwardAccumulator) is not provided
