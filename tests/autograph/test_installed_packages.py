"""AutoGraph converts code in installed packages, as TensorFlow does (its rule: everything except a
do-not-convert list of known libraries: TensorFlow, Keras, NumPy, pandas, ...): a function from a
package in site-packages that branches on a tensor runs as a cond, where treating it as library code
refused the tensor as a Python bool. Listed libraries and the standard library still run as they are.

The packages are written at test time into stand-in folders for site-packages and the standard
library (user_code's path lists are pointed at them)."""
import importlib
import sys

import pytest

import eagerflow as tf
from eagerflow._src.autograph import user_code

SOURCE = '''
def branch(x):  # a constant naming the package: equal code objects would share AutoGraph's cache entry
    if x > 0:
        return x * 2.0
    return -x + 0.0 * len("{name}")
'''


@pytest.fixture
def folders(tmp_path, monkeypatch):
    site, stdlib = tmp_path / "lib" / "site-packages", tmp_path / "lib"
    site.mkdir(parents=True)
    monkeypatch.setattr(user_code, "_SITE_PATHS", (str(site.resolve()),))
    monkeypatch.setattr(user_code, "_STDLIB_PATHS", (str(stdlib.resolve()),))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(stdlib))
    made = []

    def write(folder, package):
        (folder / package).mkdir()
        (folder / package / "__init__.py").write_text(SOURCE.format(name=package))
        made.append(package)
        importlib.invalidate_caches()
        return importlib.import_module(package)
    yield site, stdlib, write
    for package in made:
        sys.modules.pop(package, None)


def _run(fn):
    f = tf.function(fn)
    values = [float(f(tf.constant(3.0))), float(f(tf.constant(-2.0)))]
    graph = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    return values, bool({"If", "StatelessIf"} & {op.type for op in graph.get_operations()})


def test_a_function_from_an_installed_package_is_converted(folders):
    site, _, write = folders
    package = write(site, "ef_test_installed_helpers")
    assert not user_code.library_module(package.__name__, package)
    assert _run(package.branch) == ([6.0, 2.0], True)


def test_listed_libraries_and_the_standard_library_run_as_they_are(folders, monkeypatch):
    site, stdlib, write = folders
    monkeypatch.setattr(user_code, "DO_NOT_CONVERT", user_code.DO_NOT_CONVERT + ("ef_test_listed",))
    for package in (write(site, "ef_test_listed"), write(stdlib, "ef_test_standard")):
        assert user_code.library_module(package.__name__, package)
        with pytest.raises(TypeError, match="Using a symbolic `tf.Tensor` as a Python `bool` is not allowed"):
            _run(package.branch)


def test_the_do_not_convert_list_is_tensorflows_and_ours():
    for name in ("tensorflow.python.ops", "keras.layers", "numpy.linalg", "pandas", "matplotlib.pyplot", "PIL.Image",
                 "absl.logging", "eagerflow.keras", "tf_keras"):
        assert user_code.library_module(name), name
    assert not user_code.library_module("absl.flags") or "absl" not in sys.modules  # only absl's logging is listed
