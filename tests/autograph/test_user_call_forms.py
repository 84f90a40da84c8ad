"""AutoGraph converts the user code a tf.function calls, whatever the call's form: a user module's
attribute (`mymod.helper(x)`, the bug this file started from), an import, a package path, methods
(own, static, class, super), callable objects, items of dicts and lists, partials, lambdas,
factories' results, `getattr`. Library code, classes (constructors), functions marked
do_not_convert and functions without source run as they are.

Each case's results for x = 3 and x = -2, and whether its graph holds a cond (both branches
traced), are TensorFlow 2.21's: the same forms run there (user_code/ copied beside the script)."""
import functools
import importlib
import sys

import pytest

import eagerflow as tf

from .user_code import more, shapes as mymod
from .user_code.shapes import helper
from . import user_code

TF_NOT_ALLOWED = "OperatorNotAllowedInGraphError"

# name: (entry point, TensorFlow 2.21's [f(3.0), f(-2.0)] or its exception class)
CASES = {
    "module_attribute": (lambda x: mymod.helper(x), [6.0, 2.0]),
    "from_import": (lambda x: helper(x), [6.0, 2.0]),
    "dotted_package_path": (lambda x: user_code.shapes.helper(x), [6.0, 2.0]),
    "nested_module_calls": (lambda x: mymod.through_module(x), [6.0, 2.0]),
    "global_instance_method": (lambda x: mymod.SHAPE.method(x), [9.0, -0.6666666865348816]),
    "method_calls_own_method": (lambda x: mymod.SHAPE.calls_own_method(x), [10.0, 0.3333333134651184]),
    "new_instance_method": (lambda x: mymod.Shape(2.0).method(x), [6.0, -1.0]),
    "super_method": (lambda x: mymod.Derived().method(x), [9.5, -0.1666666865348816]),
    "staticmethod": (lambda x: mymod.Shape.static(x), [13.0, -12.0]),
    "classmethod": (lambda x: mymod.Shape.klass(x), [23.0, -22.0]),
    "callable_object": (lambda x: mymod.SHAPE(x), [103.0, -102.0]),
    "dict_item": (lambda x: mymod.TABLE["helper"](x), [6.0, 2.0]),
    "dict_item_static": (lambda x: mymod.TABLE["static"](x), [13.0, -12.0]),
    "list_item": (lambda x: mymod.LISTED[1](x, 2.0), [6.0, -4.0]),
    "partial": (lambda x: mymod.PARTIAL(x), [12.0, -6.0]),
    "local_partial": (lambda x: functools.partial(mymod.scaled, scale=5.0)(x), [15.0, -7.0]),
    "lambda_global": (lambda x: mymod.LAMBDA(x), [7.0, 3.0]),
    "lambda_ternary": (lambda x: mymod.TERNARY(x), [9.0, -10.0]),
    "factory_result": (lambda x: mymod.make()(x), [3.25, -2.25]),
    "getattr_call": (lambda x: getattr(mymod, "helper")(x), [6.0, 2.0]),
    "constructor": (lambda x: mymod.Checked(x).value, TF_NOT_ALLOWED),
    "library_calls_user_function": (lambda x: tf.nest.map_structure(mymod.helper, x), TF_NOT_ALLOWED),
}


def _run(fn):
    """[f(3.0), f(-2.0)] and whether the graph has a cond, or the exception class's name."""
    f = tf.function(fn)
    try:
        values = [float(f(tf.constant(3.0)).numpy()), float(f(tf.constant(-2.0)).numpy())]
    except Exception as err:  # noqa: BLE001 - the class is compared with TensorFlow's
        return type(err).__name__, None
    graph = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    return values, bool({"If", "StatelessIf"} & {op.type for op in graph.get_operations()})


@pytest.mark.parametrize("case", sorted(CASES))
def test_call_form_converts_as_in_tensorflow(case):
    fn, expected = CASES[case]
    got, has_cond = _run(fn)
    if isinstance(expected, str):
        assert got == expected
        return
    assert got == pytest.approx(expected, rel=1e-6)
    assert has_cond  # the `if` became a cond: both branches are in the graph


def test_the_reported_bug_module_attribute_and_from_import():
    """`mymod.helper(x)` raised OperatorNotAllowedInGraphError while `helper(x)` worked."""
    @tf.function
    def by_attribute(x):
        return mymod.helper(x)

    @tf.function
    def by_name(x):
        return helper(x)
    for f in (by_attribute, by_name):
        assert float(f(tf.constant(3.0))) == 6.0 and float(f(tf.constant(-2.0))) == 2.0
    assert "ag__.convert(mymod.helper)(x)" in tf.autograph.to_code(by_attribute)


def test_do_not_convert_is_respected_through_a_module_attribute(monkeypatch):
    monkeypatch.setattr(more, "marked", tf.autograph.experimental.do_not_convert(more.absolute), raising=False)
    got, _ = _run(lambda x: more.marked(x))
    assert got == TF_NOT_ALLOWED  # TensorFlow 2.21: the Python `if` meets a tensor
    got, _ = _run(lambda x: more.absolute(x))
    assert got == [3.0, 2.0]


def test_a_function_without_source_reached_through_a_module_runs_as_it_is(monkeypatch, caplog):
    namespace = {"__name__": more.__name__}
    exec("def no_source(x):\n    if x > 0:\n        return x\n    return -x\n", namespace)
    monkeypatch.setattr(more, "no_source", namespace["no_source"], raising=False)
    with caplog.at_level("WARNING", logger="eagerflow._src.autograph"):
        got, _ = _run(lambda x: more.no_source(x))
    assert got == TF_NOT_ALLOWED  # as TensorFlow 2.21: unconverted, with a warning
    assert "could not transform no_source" in caplog.text


def test_a_module_object_with_a_user_call_is_converted():
    class Offset(tf.Module):
        def __call__(self, x):
            if x > 0:
                return x + 1.0
            return x - 1.0
    got, has_cond = _run(lambda x: Offset()(x))
    assert got == [4.0, -3.0] and has_cond  # TensorFlow 2.21's values


def test_a_namespace_package_is_user_code(tmp_path, monkeypatch):
    """A folder without __init__.py on sys.path: a module with no __file__, still the user's."""
    (tmp_path / "ag_namespace_pkg").mkdir()
    (tmp_path / "ag_namespace_pkg" / "sub.py").write_text(
        "def helper(x):\n    if x > 0:\n        return x * 7.0\n    return x * 11.0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        package = importlib.import_module("ag_namespace_pkg")
        importlib.import_module("ag_namespace_pkg.sub")
        assert getattr(package, "__file__", None) is None
        got, has_cond = _run(lambda x: package.sub.helper(x))
        assert got == [21.0, -22.0] and has_cond  # TensorFlow 2.21's values
    finally:
        for name in ("ag_namespace_pkg.sub", "ag_namespace_pkg"):
            sys.modules.pop(name, None)


def test_library_calls_stay_as_they_are_in_the_converted_source():
    def body(x):
        return tf.nn.relu(x) + tf.constant([1.0])[0].numpy() + mymod.helper(x)
    code = tf.autograph.to_code(body)
    assert "tf.nn.relu(x)" in code and "tf.constant([1.0])[0].numpy()" in code
    assert "ag__.convert(mymod.helper)(x)" in code


def test_a_user_function_kept_on_a_library_object_is_converted():
    """`settings.fn(x)` on a types.SimpleNamespace (a library class): TensorFlow 2.21 converts the
    user method it holds; a library function kept there stays as it is."""
    import types
    settings = types.SimpleNamespace(fn=mymod.Shape(3.0).method, relu=tf.nn.relu)
    got, has_cond = _run(lambda x: settings.fn(x) + settings.relu(x))
    assert got == pytest.approx([12.0, -0.6666666865348816]) and has_cond  # TensorFlow 2.21's values
    code = tf.autograph.to_code(lambda x: settings.fn(x) + settings.relu(x))
    assert "ag__.convert(settings.fn)(x)" in code and "settings.relu(x)" in code
