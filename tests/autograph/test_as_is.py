"""Functions AutoGraph leaves as they are without reading their source (autograph/as_is.py): straight-line
code whose calls the calls converter would all leave. The bytecode's answer must never be "as it is" where
converting the source rewrites something: checked on hand-picked calls (each root the converter tells apart)
and on random straight-line functions built from them, against the converter run on the source."""
import importlib.util
import random
import sys

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.autograph import as_is, transform
from eagerflow._src.autograph.converters import calls

# (statement, whether the bytecode says "as it is", whether the converter leaves it); `x`, `w` are parameters.
STATEMENTS = [
    ("h = tf.nn.relu(tf.matmul(x, w) + 1.0)", True, True),     # calls through a library module
    ("h = np.float32(2.0).item() * x", True, True),            # a module's call result, then its method
    ("h = relu(x)", True, True),                               # a library function called by its name
    ("h = Dense(3)", True, True),                              # a library class called by its name
    ("h = Dense.__name__", True, True),                        # no call
    ("h = tf.constant([1.0, 2.0])[0] + x", True, True),        # a subscript of a module's call result
    ("h = {'a': x, 'b': [w, 1]}", True, True),                 # containers
    ("h = f'{x!r:>10}'", True, True),                          # formatting
    ("h = tf.reduce_sum(*[x], **{'axis': 0})", True, True),    # star arguments through a module
    ("h = abs(x) + max(1, 2)", True, True),                    # builtins other than len/range
    ("a, b = tf.unstack(tf.stack([x, w]))", True, True),       # unpacking
    ("h = CLOSED.add(x, w)", True, True),                      # a library module held in a closure
    ("h = [x][0].numpy()", True, True),                        # a method of a list's item: no name at the root
    ("h = len(x)", False, False),                              # len -> ag__.len_
    ("h = sum(range(3))", False, False),                       # range -> ag__.range_
    ("h = helper(x)", False, False),                           # a user function
    ("h = x.numpy()", False, False),                           # a method of a local
    ("h = w(x)", False, False),                                # a local called
    ("h = OBJ.scale(x)", False, False),                        # a user object's method
    ("h = Dense(3).get_config()", False, False),               # a library value's call result, then a method
    ("h = relu(x).numpy()", False, False),                     # the same for a library function's result
    ("h = CLOSED_HELPER(x)", False, False),                    # a user function held in a closure
    ("xs = []\n    xs.append(x)", False, False),               # a local list's append
    ("h = USER_MODULE.helper(x)", False, False),               # a user module's function
    ("h = USER_MODULE.helper(x).numpy()", False, False),       # a method of its result
    ("h = FUNCS[0](x)", False, False),                         # an item of a list of functions
    ("h = CONSTS[0].numpy()", False, False),                   # a method of a library container's item
    ("h = tf.constant([1.0])[0].numpy()", True, True),         # a method of a module call's item
    ("h = tf.identity(x)(x)", False, False),                   # a call's result called
    ("h = [x][0](x)", False, False),                           # an item called
    ("h = PARTIAL(x)", False, False),                          # a partial of a user function
    ("h = CALLER(x)", False, False),                           # an object whose class defines __call__
    ("h = LIBRARY_PARTIAL(x)", True, True),                    # a partial of a library function
    ("h = NAMESPACE.activation(x)", False, False),             # a user function kept on a library object
    ("h = NAMESPACE.scaler.scale(x)", False, False),           # a user object's method, through one
    ("h = NAMESPACE.relu(x)", True, True),                     # a library function kept on one
    ("h = NAMESPACE.missing(x)", True, True),                  # no such attribute: Python raises
    ("h = Dense.from_config({})", True, True),                 # a library class's class method
]

_MODULE = '''
import functools
import types

import numpy as np
import eagerflow as tf
from eagerflow.keras.layers import Dense
import {user_module} as USER_MODULE

relu = tf.nn.relu


class _Scaler:
    def scale(self, x):
        return x * 2.0


OBJ = _Scaler()


class _Caller:
    def __call__(self, x):
        return x


CALLER = _Caller()
FUNCS = [_Scaler().scale]
CONSTS = [np.float32(1.0)]
NAMESPACE = types.SimpleNamespace(scaler=OBJ, relu=relu)


def helper(x):
    return x + 1.0


PARTIAL = functools.partial(helper)
NAMESPACE.activation = helper
LIBRARY_PARTIAL = functools.partial(tf.nn.relu)
'''


def _write_module(tmp_path, name, functions, user_module):
    """A module on disk (AutoGraph reads sources through linecache) defining `functions`:
    {name: body lines}, each a closure over CLOSED (eagerflow) and CLOSED_HELPER (a user function)."""
    text = _MODULE.format(user_module=user_module)
    for fname, body in functions.items():
        text += (f"\n\ndef _factory_{fname}():\n    CLOSED = tf\n    CLOSED_HELPER = helper\n\n"
                 f"    def {fname}(x, w):\n        {body.replace(chr(10) + '    ', chr(10) + '        ')}\n"
                 f"        _ = (CLOSED, CLOSED_HELPER)\n        return x\n    return {fname}\n\n\n"
                 f"{fname} = _factory_{fname}()\n")
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def user_module(tmp_path):
    (tmp_path / "as_is_user_helpers.py").write_text("def helper(x):\n    return x\n")
    sys.path.insert(0, str(tmp_path))
    yield "as_is_user_helpers"
    sys.path.remove(str(tmp_path))
    sys.modules.pop("as_is_user_helpers", None)


def _source_says_as_is(fn):
    """The converter's own answer: its calls step, run on the parsed source, rewrites nothing."""
    func = transform._parse(fn)
    ctx = transform._Context(fn, func)
    calls.convert(func, ctx)
    return not transform._reads_runtime(func)


def _bytecode_says_as_is(fn):
    assert as_is.straight_line(fn.__code__)
    return as_is.left_as_is(fn, transform._Context.is_user_module, transform._Context.is_library_value,
                            transform._Context.is_user_callable)


needs_311 = pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="as_is.py reads CPython 3.11's bytecode")


@needs_311
def test_each_kind_of_call_is_told_apart_as_the_converter_does(tmp_path, user_module):
    functions = {f"f{i}": statement for i, (statement, _, _) in enumerate(STATEMENTS)}
    module = _write_module(tmp_path, "as_is_cases", functions, user_module)
    for i, (statement, by_bytecode, by_source) in enumerate(STATEMENTS):
        fn = getattr(module, f"f{i}")
        assert _source_says_as_is(fn) is by_source, statement
        assert _bytecode_says_as_is(fn) is by_bytecode, statement


@needs_311
def test_random_straight_line_functions_are_never_called_as_is_wrongly(tmp_path, user_module):
    rng = random.Random(0)
    functions, expected = {}, {}
    for k in range(150):
        picked = rng.sample(STATEMENTS, rng.randint(1, 4))
        functions[f"g{k}"] = "\n    ".join(s for s, _, _ in picked)
        expected[f"g{k}"] = all(b for _, b, _ in picked)
    module = _write_module(tmp_path, "as_is_random", functions, user_module)
    for name, body in functions.items():
        fn = getattr(module, name)
        by_bytecode = _bytecode_says_as_is(fn)
        assert by_bytecode is expected[name], body
        assert _source_says_as_is(fn) or not by_bytecode, body  # never "as it is" where conversion rewrites
    assert 10 < sum(expected.values()) < 140  # both answers are exercised


def test_a_function_left_as_it_is_runs_as_itself_and_to_code_shows_its_source(tmp_path):
    path = tmp_path / "as_is_plain.py"
    path.write_text("import eagerflow as tf\n\n\ndef plain(x, w):\n    return tf.nn.relu(tf.matmul(x, w) + 1.0)\n")
    spec = importlib.util.spec_from_file_location("as_is_plain", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = module.plain
    if sys.version_info[:2] == (3, 11):
        assert transform.convert_function(fn) is fn
    out = tf.function(fn)(tf.constant([[1.0, -2.0]]), tf.constant([[3.0], [-4.0]]))
    np.testing.assert_allclose(out.numpy(), [[12.0]])  # relu(1*3 + (-2)(-4) + 1)
    code = tf.autograph.to_code(fn)
    assert "return tf.nn.relu(tf.matmul(x, w) + 1.0)" in code and "ag__" not in code


def test_a_function_without_source_still_warns_that_it_runs_as_it_is(caplog):
    namespace = {"tf": tf, "__name__": "as_is_user_code"}  # user code, not a library
    exec("def no_source(x):\n    return tf.square(x)\n", namespace)
    with caplog.at_level("WARNING", logger="eagerflow._src.autograph"):
        assert transform.convert_function(namespace["no_source"]) is namespace["no_source"]
    assert "could not transform no_source" in caplog.text
