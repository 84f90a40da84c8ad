"""A loaded signature and a loaded function report their types as TensorFlow 2.21 restores them:
keyword parameters sorted by name (also the placeholders' order), restored TensorSpecs named
(parameters by path, outputs by key or path), `structured_outputs` as TensorSpecs, TensorFlow's
repr, and TensorFlow's refusal of positional arguments. Every expected text is TF 2.21's output
for the same program."""
import collections
import re

import pytest

import eagerflow as tf

from .protobuf_edits import legacy_save, rewrite


class Served(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="zeta"),
                                  tf.TensorSpec([], tf.int32, name="alpha")])
    def f(self, zeta, alpha):
        return {"out_b": zeta * 2.0, "out_a": tf.cast(alpha, tf.float32)}

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def g(self, x):
        return x + 1.0

    @tf.function
    def h(self, x, d):
        return {"z": (x * 2.0, [x + 1.0])}

    @tf.function
    def one(self, x):
        return x * 2.0

    @tf.function
    def listed(self, x):
        return [x, {"1a": x, "a b": x, "B": [x]}]


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    m = Served()
    m.h(tf.ones([2]), {"k": tf.ones([2])})
    m.one(tf.ones([2]))
    m.listed(tf.ones([2]))
    directory = str(tmp_path_factory.mktemp("restored") / "m")
    tf.saved_model.save(m, directory, signatures={"serving_default": m.f, "single": m.g})
    return tf.saved_model.load(directory)


ALPHA = "TensorSpec(shape=(), dtype=tf.int32, name='alpha')"
ZETA = "TensorSpec(shape=(None, 3), dtype=tf.float32, name='zeta')"
OUT = ("Dict[['out_a', TensorSpec(shape=(), dtype=tf.float32, name='out_a')], "
       "['out_b', TensorSpec(shape=(None, 3), dtype=tf.float32, name='out_b')]]")


def test_a_loaded_signature_sorts_its_keyword_parameters_and_names_its_outputs(loaded):
    s = loaded.signatures["serving_default"]
    assert re.fullmatch(rf"<ConcreteFunction \(\*, alpha: {re.escape(ALPHA)}, zeta: {re.escape(ZETA)}\) -> "
                        rf"{re.escape(OUT)} at 0x[0-9A-F]+>", repr(s))
    assert s.pretty_printed_signature() == (
        f"Input Parameters:\n  alpha (KEYWORD_ONLY): {ALPHA}\n  zeta (KEYWORD_ONLY): {ZETA}\n"
        f"Output Type:\n  {OUT}\nCaptures:\n  None")
    assert str(s) == "ConcreteFunction " + s.pretty_printed_signature()
    assert s.pretty_printed_signature(verbose=False) == f"(*, alpha: {ALPHA}, zeta: {ZETA}) -> {OUT}"
    assert [t.name for t in s.inputs] == ["alpha:0", "zeta:0"]
    args, kwargs = s.structured_input_signature
    assert args == () and list(kwargs) == ["alpha", "zeta"]
    assert repr(kwargs["alpha"]) == ALPHA and repr(kwargs["zeta"]) == ZETA
    outs = s.structured_outputs
    assert list(outs) == ["out_a", "out_b"]
    assert all(isinstance(v, tf.TensorSpec) for v in outs.values())
    assert repr(outs["out_b"]) == "TensorSpec(shape=(None, 3), dtype=tf.float32, name='out_b')"
    assert s.output_shapes == {"out_a": tf.TensorShape([]), "out_b": tf.TensorShape([None, 3])}


def test_a_loaded_signature_is_called_by_keyword_in_any_order(loaded):
    s = loaded.signatures["serving_default"]
    result = s(alpha=tf.constant(2), zeta=tf.ones([2, 3]))
    assert list(result) == ["out_a", "out_b"]
    assert float(result["out_a"]) == 2.0 and result["out_b"].numpy().tolist() == [[2.0] * 3] * 2
    again = s(zeta=tf.ones([1, 3]) * 3.0, alpha=tf.constant(5))
    assert float(again["out_a"]) == 5.0 and again["out_b"].numpy().tolist() == [[6.0] * 3]


def test_a_loaded_signature_refuses_positional_arguments_as_tensorflow(loaded):
    s = loaded.signatures["serving_default"]
    with pytest.raises(TypeError) as info:
        s(tf.ones([2, 3]), tf.constant(2))
    text = str(info.value)
    assert text.startswith("Binding inputs to tf.function failed due to `too many positional arguments`.")
    assert text.endswith(f"for signature: (*, alpha: {ALPHA}, zeta: {ZETA}) -> {OUT}.\nFallback to flat signature "
                         f"also failed due to: signature_wrapper_f(alpha, zeta) takes 0 positional arguments, got 2.")
    with pytest.raises(TypeError, match=r"signature_wrapper_f\(alpha, zeta\) missing required arguments: alpha\.$"):
        s(zeta=tf.ones([2, 3]))


def test_a_loaded_signature_with_one_input_takes_it_by_position(loaded):
    s = loaded.signatures["single"]
    assert float(s(tf.constant(1.0))["output_0"]) == 2.0
    assert float(s(x=tf.constant(2.0))["output_0"]) == 3.0
    with pytest.raises(TypeError, match=r"signature_wrapper_g\(x\) takes 1 positional arguments, got 2\.$"):
        s(tf.constant(1.0), tf.constant(1.0))


def test_a_loaded_functions_specs_are_named_by_their_paths(loaded):
    (cf,) = loaded.h.concrete_functions
    x = "TensorSpec(shape=(2,), dtype=tf.float32, name='x')"
    assert re.fullmatch(
        re.escape(f"<ConcreteFunction (x: {x}, d: Dict[['k', TensorSpec(shape=(2,), dtype=tf.float32, name='d_k')]])"
                  " -> Dict[['z', Tuple[TensorSpec(shape=(2,), dtype=tf.float32, name='z_0'), "
                  "List[TensorSpec(shape=(2,), dtype=tf.float32, name='z_1_0')]]]] at 0x") + "[0-9A-F]+>", repr(cf))
    assert repr(cf.structured_outputs) == ("{'z': (TensorSpec(shape=(2,), dtype=tf.float32, name='z_0'), "
                                           "[TensorSpec(shape=(2,), dtype=tf.float32, name='z_1_0')])}")
    (single,) = loaded.one.concrete_functions
    assert repr(single.structured_outputs) == "TensorSpec(shape=(2,), dtype=tf.float32, name='unknown')"
    assert f"  x (POSITIONAL_OR_KEYWORD): {x}\n" in single.pretty_printed_signature()
    (listed,) = loaded.listed.concrete_functions
    assert listed.pretty_printed_signature(verbose=False) == (
        f"(x: {x}) -> List[TensorSpec(shape=(2,), dtype=tf.float32, name='tensor_0'), "
        "Dict[['1a', TensorSpec(shape=(2,), dtype=tf.float32, name='tensor_1_1a')], "
        "['a b', TensorSpec(shape=(2,), dtype=tf.float32, name='tensor_1_a_b')], "
        "['B', List[TensorSpec(shape=(2,), dtype=tf.float32, name='tensor_1_b_0')]]]]")
    assert loaded.one(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]


def test_a_traced_function_keeps_unnamed_specs_and_prints_tensorflows_repr():
    @tf.function
    def t(x, y=3):
        return (x,)

    cf = t.get_concrete_function(tf.ones([2]))
    assert re.fullmatch(re.escape("<ConcreteFunction (x: TensorSpec(shape=(2,), dtype=tf.float32, name=None), "
                                  "y: Literal[3]) -> Tuple[TensorSpec(shape=(2,), dtype=tf.float32, name=None)] at 0x")
                        + "[0-9A-F]+>", repr(cf))


def test_a_loaded_model_with_named_outputs_saves_and_loads_again(loaded, tmp_path):
    tf.saved_model.save(loaded, str(tmp_path / "again"), signatures=loaded.signatures)
    again = tf.saved_model.load(str(tmp_path / "again"))
    s = again.signatures["serving_default"]
    assert s.pretty_printed_signature(verbose=False) == f"(*, alpha: {ALPHA}, zeta: {ZETA}) -> {OUT}"
    assert float(s(alpha=tf.constant(4), zeta=tf.ones([1, 3]))["out_a"]) == 4.0
    assert again.one(tf.constant([3.0, 1.0])).numpy().tolist() == [6.0, 2.0]


NT = collections.namedtuple("NT", ["p", "q"])


def test_a_namedtuple_output_comes_back_as_a_namedtuple_with_named_specs(tmp_path):
    holder = tf.Module()
    holder.pair = tf.function(lambda x: {"z": x * 2.0, "a": NT(x, x + 1.0)})
    holder.pair(tf.ones([2]))
    tf.saved_model.save(holder, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    (cf,) = loaded.pair.concrete_functions
    spec = "TensorSpec(shape=(2,), dtype=tf.float32, name='{}')"
    # TF 2.21: -> Dict[['z', TensorSpec(..., name='z')], ['a', NT[['p', TensorSpec(..., name='a_p')], ['q', ...]]]]
    assert cf.pretty_printed_signature(verbose=False).endswith(
        f"-> Dict[['z', {spec.format('z')}], ['a', NT[['p', {spec.format('a_p')}], ['q', {spec.format('a_q')}]]]]")
    assert repr(cf.structured_outputs["a"]) == f"NT(p={spec.format('a_p')}, q={spec.format('a_q')})"
    out = loaded.pair(tf.constant([1.0, 2.0]))
    assert type(out["a"]).__name__ == "NT" and out["a"]._fields == ("p", "q")
    assert out["a"].q.numpy().tolist() == [2.0, 3.0] and out["z"].numpy().tolist() == [2.0, 4.0]


@pytest.mark.parametrize("body, words", [(["NT", ["p", "p"], [{"output": 0}, {"output": 0}]], "bad namedtuple"),
                                         (["NT", ["class"], [{"output": 0}]], "bad namedtuple"),
                                         (["NT", ["p", "q"], [{"output": 0}]], "not a valid output structure"),
                                         ([3, ["p"], [{"output": 0}]], "a namedtuple is")])
def test_a_malformed_namedtuple_structure_is_data_loss_in_eagerflows_earlier_format(tmp_path, body, words):
    import json
    holder = tf.Module()
    holder.f = tf.function(lambda x: NT(x, x))
    holder.f(tf.ones([2]))
    legacy_save(holder, tmp_path / "m")
    path = tmp_path / "m" / "saved_model.json"
    document = json.loads(path.read_text())
    document["functions"][0]["structure"] = {"namedtuple": body}
    path.write_text(json.dumps(document))
    with pytest.raises(tf.errors.DataLossError, match=words):
        tf.saved_model.load(str(tmp_path / "m"))


def _output_namedtuple(meta):
    (name,) = [n for n in meta.object_graph_def.concrete_functions]
    return meta.object_graph_def.concrete_functions[name].output_signature.named_tuple_value


def _rename_field(meta, index, new):
    _output_namedtuple(meta).values[index].key = new


@pytest.mark.parametrize("edit, words", [
    (lambda meta: _rename_field(meta, 1, "p"), "bad namedtuple 'NT'"),
    (lambda meta: _rename_field(meta, 0, "class"), "bad namedtuple 'NT'"),
    (lambda meta: _output_namedtuple(meta).values.pop(), "2 outputs for an output signature of 1"),
    (lambda meta: setattr(_output_namedtuple(meta), "name", "3"), "bad namedtuple '3'")])
def test_a_malformed_namedtuple_structure_is_data_loss(tmp_path, edit, words):
    holder = tf.Module()
    holder.f = tf.function(lambda x: NT(x, x))
    holder.f(tf.ones([2]))
    tf.saved_model.save(holder, str(tmp_path / "m"))
    rewrite(tmp_path / "m", edit)
    with pytest.raises(tf.errors.DataLossError, match=rf"saved_model.pb: .*{words}"):
        tf.saved_model.load(str(tmp_path / "m"))
