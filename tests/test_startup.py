"""`import eagerflow` loads nothing optional: SciPy only on the first op that needs it (a float64 Erf), and
no other framework at all; `numpy.random` (several ms to import) only on the first random op.

Each check runs a fresh interpreter whose path starts with stub packages named like the optional
ones, so an import of any of them is seen even where the real package is not installed (this
environment has no SciPy: without the stubs the test could not fail). Timings are not tested here:
`python -m bench.startup` measures them.
"""
import json
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OPTIONAL = ("scipy", "jax", "tensorflow", "torch", "onnx", "pandas", "matplotlib")

_STUB_ERF = '''
import math
import numpy as np
calls = []
def erf(x):
    calls.append(1)
    return np.vectorize(math.erf, otypes=[np.float64])(x)
'''


def _run(tmp_path, body):
    for name in OPTIONAL:
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("")
    (tmp_path / "scipy" / "special.py").write_text(_STUB_ERF)
    code = "import sys\nsys.path[:0] = [%r, %r]\n" % (str(tmp_path), str(REPO)) + textwrap.dedent(body)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_import_loads_no_optional_package(tmp_path):
    got = _run(tmp_path, f"""
        import json
        import eagerflow
        print(json.dumps(sorted(m for m in {OPTIONAL!r} if m in sys.modules)))
    """)
    assert got == []


def test_scipy_is_imported_by_the_first_float64_erf_and_used(tmp_path):
    """float32 erf is NumPy's own rational function (ops/math/erf_float32.py): no SciPy for it."""
    got = _run(tmp_path, """
        import json
        import eagerflow as tf
        before = "scipy" in sys.modules
        y32 = tf.math.erf(tf.constant([0.5, -1.0]))
        after_float32 = "scipy.special" in sys.modules
        y = tf.math.erf(tf.constant([0.5, -1.0], tf.float64))
        import scipy.special
        print(json.dumps([before, after_float32, "scipy.special" in sys.modules, len(scipy.special.calls),
                          [round(float(v), 6) for v in y.numpy()], [round(float(v), 6) for v in y32.numpy()]]))
    """)
    assert got == [False, False, True, 1, [0.5205, -0.842701], [0.5205, -0.842701]]


def test_numpy_random_waits_for_the_first_random_op(tmp_path):
    got = _run(tmp_path, """
        import json
        import numpy
        numpy_loads_it = "numpy.random" in sys.modules  # NumPy 1.x imports it itself; 2.x lazily
        import eagerflow as tf
        before = "numpy.random" in sys.modules and not numpy_loads_it
        draw = tf.random.uniform([3])
        print(json.dumps([before, "numpy.random" in sys.modules, draw.shape.as_list()]))
    """)
    assert got == [False, True, [3]]
