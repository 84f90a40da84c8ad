"""tf.function's input_signature: validation, binding calls, and get_concrete_function under it.

Every expected message and value below is TensorFlow 2.21's output for the same program.
"""
import numpy as np
import pytest

import eagerflow as tf

F32 = "TensorSpec(shape=(), dtype=tf.float32, name=None)"


def _identity(x):
    return x


# --- a signature that cannot describe the function ---
def test_a_signature_that_is_not_a_sequence():
    with pytest.raises(TypeError, match=r"^input_signature must be either a tuple or a list, got <class '.*TensorSpec'>\.$"):
        tf.function(_identity, input_signature=tf.TensorSpec([], tf.float32))
    with pytest.raises(TypeError, match=r"^input_signature must be either a tuple or a list, got <class 'dict'>\.$"):
        tf.function(_identity, input_signature={'x': tf.TensorSpec([], tf.float32)})


def test_a_signature_with_leaves_that_are_not_specs():
    with pytest.raises(TypeError) as err:
        tf.function(_identity, input_signature=[3])
    assert str(err.value) == ("input_signature must be a possibly nested sequence of TensorSpec objects, got invalid "
                              "args [3] with types [<class 'int'>].")
    with pytest.raises(TypeError, match=r"got invalid args \[None\] with types \[<class 'NoneType'>\]\.$"):
        tf.function(_identity, input_signature=[None])


def test_a_signature_must_cover_the_parameters_without_defaults():
    def f2(x, y):
        return x + y
    with pytest.raises(TypeError, match="^input_signature missing type constraint for y$"):
        tf.function(f2, input_signature=[tf.TensorSpec([], tf.float32)])
    with pytest.raises(TypeError, match="^input_signature contains 1 extra type constraints.$"):
        tf.function(_identity, input_signature=[tf.TensorSpec([], tf.float32)] * 2)

    def f3(x, *, y):
        return x + y
    with pytest.raises(TypeError, match="^Since input_signature is defined, keyword-only parameter `y` must have a "
                                        "default value$"):
        tf.function(f3, input_signature=[tf.TensorSpec([], tf.float32)])


# --- defaults and keywords ---
def test_parameters_left_to_their_defaults_are_frozen_literals():
    def f2d(x, y=3.0):
        return x + y
    f = tf.function(f2d, input_signature=[tf.TensorSpec([], tf.float32)])
    assert float(f(tf.constant(1.))) == 4.0
    assert float(f(tf.constant(1.), 3.0)) == 4.0
    assert float(f(x=2.0)) == 5.0
    with pytest.raises(TypeError) as err:
        f(tf.constant(1.), 5.0)
    assert str(err.value).startswith("Binding inputs to tf.function failed due to `Can not cast 5.0 to Literal[3.0]`.")
    assert str(err.value).endswith(f"for signature: (x: {F32}, y: Literal[3.0] = <captured_default_value>).")
    cf = f.get_concrete_function()
    assert repr(cf.structured_input_signature) == "((TensorSpec(shape=(), dtype=tf.float32, name='x'), 3.0), {})"
    assert cf.pretty_printed_signature() == (
        f"Input Parameters:\n  x (POSITIONAL_OR_KEYWORD): {F32}\n  y (POSITIONAL_OR_KEYWORD): Literal[3.0]\n"
        f"Output Type:\n  {F32}\nCaptures:\n  None")

    def f3(x, *, y=2.0):
        return x + y
    assert float(tf.function(f3, input_signature=[tf.TensorSpec([], tf.float32)])(1.)) == 3.0


def test_var_positional_parameters_take_the_specs_beyond_the_named_ones():
    v = tf.function(lambda *a: a[0] + a[1], input_signature=[tf.TensorSpec([], tf.float32)] * 2)
    assert float(v(1., 2.)) == 3.0
    cf = v.get_concrete_function()
    assert cf.pretty_printed_signature() == (
        f"Input Parameters:\n  a_0 (POSITIONAL_ONLY): {F32}\n  a_1 (POSITIONAL_ONLY): {F32}\n"
        f"Output Type:\n  {F32}\nCaptures:\n  None")
    assert repr(cf.structured_input_signature) == (
        "((TensorSpec(shape=(), dtype=tf.float32, name='a_0'), TensorSpec(shape=(), dtype=tf.float32, name='a_1')), {})")
    with pytest.raises(TypeError) as err:
        v(1., 2., 3.)
    assert str(err.value) == ("Binding inputs to tf.function failed due to `too many positional arguments`. Received "
                              f"args: (1.0, 2.0, 3.0) and kwargs: {{}} for signature: (a_0: {F32}, a_1: {F32}, /).")


# --- nested structures ---
_NESTED = [(tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.float32)), {'k': tf.TensorSpec([2], tf.float32)}]
_NESTED_TEXT = ("(a: Tuple[TensorSpec(shape=(2,), dtype=tf.float32, name=None), TensorSpec(shape=(2,), dtype=tf.float32, "
                "name=None)], b: Dict[['k', TensorSpec(shape=(2,), dtype=tf.float32, name=None)]])")


def _nested():
    return tf.function(lambda a, b: a[0] + a[1] + b['k'], input_signature=_NESTED)


def test_nested_signatures_accept_tensors_numpy_and_python_values_by_position_and_keyword():
    f = _nested()
    out = f((tf.constant([1., 2.]), np.array([1., 2.], np.float32)), {'k': [1., 2.]})
    np.testing.assert_array_equal(out.numpy(), [3., 6.])
    out = f(b={'k': [1., 2.]}, a=(tf.constant([1., 2.]), tf.constant([1., 2.])))
    np.testing.assert_array_equal(out.numpy(), [3., 6.])
    assert f.experimental_get_tracing_count() == 1


def test_nested_signature_mismatches():
    f = _nested()
    with pytest.raises(TypeError) as err:
        f((tf.constant([1., 2.]), tf.constant([1., 2., 3.])), {'k': [1., 2.]})
    assert str(err.value).startswith(
        "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(3,), dtype=tf.float32, name=None) "
        "to TensorSpec(shape=(2,), dtype=tf.float32, name=None)`.")
    assert str(err.value).endswith(f"for signature: {_NESTED_TEXT}.")
    with pytest.raises(TypeError) as err:
        f([tf.constant([1., 2.]), tf.constant([1., 2.])], {'k': [1., 2.]})
    assert "failed due to `Can not cast [<tf.Tensor: shape=(2,)" in str(err.value)
    assert "dtype=float32)>] to tuple type.`" in str(err.value)


def test_dict_and_list_signatures():
    n = tf.function(lambda a: a['x'] + a['y'][0],
                    input_signature=[{'x': tf.TensorSpec([], tf.float32), 'y': [tf.TensorSpec([], tf.float32)]}])
    assert float(n({'x': 1., 'y': [2.]})) == 3.0
    text = ("(a: Dict[['x', TensorSpec(shape=(), dtype=tf.float32, name=None)], "
            "['y', List[TensorSpec(shape=(), dtype=tf.float32, name=None)]]])")
    with pytest.raises(TypeError) as err:
        n([1.])
    # TensorFlow's message; ours names the parameter in between ("Parameter 'a' does not fit its spec.")
    assert str(err.value).startswith("Binding inputs to tf.function failed due to `Can not cast [1.0] to a Dict type.`.")
    assert str(err.value).endswith(f" Received args: ([1.0],) and kwargs: {{}} for signature: {text}.")
    with pytest.raises(TypeError, match=r"failed due to `Can not cast \(2.0,\) to list type.`"):
        n({'x': 1., 'y': (2.,)})
    cf = n.get_concrete_function()
    assert cf.pretty_printed_signature() == (
        f"Input Parameters:\n  a (POSITIONAL_OR_KEYWORD): {text[4:-1]}\nOutput Type:\n  {F32}\nCaptures:\n  None")
    assert repr(cf.structured_input_signature) == (
        "(({'x': TensorSpec(shape=(), dtype=tf.float32, name='a_x'), "
        "'y': [TensorSpec(shape=(), dtype=tf.float32, name='a_y_0')]},), {})")
    assert [t.name for t in cf.inputs] == ['a:0', 'a_1:0']
    with pytest.raises(TypeError, match=r"failed due to `\{'a': 1.0, 'b': 2.0\} has different keys with the "
                                        r"TraceType Dict\[\['a', TensorSpec"):
        tf.function(lambda d: d['a'], input_signature=[{'a': tf.TensorSpec([], tf.float32)}])({'a': 1., 'b': 2.})


# --- Python and NumPy values where tensors go ---
_S3 = "TensorSpec(shape=(3,), dtype=tf.float32, name=None)"


def _s3():
    return tf.function(lambda x: x * 2, input_signature=[tf.TensorSpec([3], tf.float32)])


@pytest.mark.parametrize("value, expected", [
    ([1, 2, 3], [2., 4., 6.]),
    (np.array([1, 2, 3]), [2., 4., 6.]),
    (np.array([1., 2., 3.]), [2., 4., 6.]),
    (np.array([True, False, True]), [2., 0., 2.]),
])
def test_python_and_numpy_values_convert_to_the_spec_dtype(value, expected):
    out = _s3()(value)
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), expected)


def test_a_variable_is_accepted_for_a_spec():
    np.testing.assert_array_equal(_s3()(tf.Variable([1., 2., 3.])).numpy(), [2., 4., 6.])


def test_values_that_do_not_fit():
    s = _s3()
    with pytest.raises(TypeError) as err:
        s("abc")
    assert str(err.value) == ("Binding inputs to tf.function failed due to `Cannot convert 'abc' to EagerTensor of "
                              f"dtype float`. Parameter 'x' does not fit its spec. Received args: ('abc',) and "
                              f"kwargs: {{}} for signature: (x: {_S3}).")
    with pytest.raises(TypeError, match=r"failed due to `Can not cast TensorSpec\(shape=\(2,\), dtype=tf.float32, "
                                        r"name=None\) to TensorSpec\(shape=\(3,\)"):
        s([1., 2.])
    with pytest.raises(TypeError, match="failed due to `Cannot convert 1.5 to EagerTensor of dtype int32`"):
        tf.function(_identity, input_signature=[tf.TensorSpec([], tf.int32)])(1.5)
    with pytest.raises(TypeError, match=r"failed due to `Can not cast TensorSpec\(shape=\(3,\), dtype=tf.int32, "
                                        r"name=None\) to TensorSpec\(shape=\(3,\), dtype=tf.float32"):
        s(tf.constant([1, 2, 3]))
    with pytest.raises(TypeError, match="failed due to `missing a required argument: 'x'`"):
        s()


# --- get_concrete_function under a signature ---
def test_get_concrete_function_accepts_what_fits_the_signature():
    s = tf.function(lambda x: x * 2, input_signature=[tf.TensorSpec([None], tf.float32)])
    expected = "((TensorSpec(shape=(None,), dtype=tf.float32, name='x'),), {})"
    cf = s.get_concrete_function()
    assert repr(cf.structured_input_signature) == expected
    assert s.get_concrete_function(tf.TensorSpec([3], tf.float32)) is cf
    assert s.get_concrete_function(tf.constant([1., 2.])) is cf
    assert repr(_s3().get_concrete_function([1., 2., 3.]).structured_input_signature) == (
        "((TensorSpec(shape=(3,), dtype=tf.float32, name='x'),), {})")


@pytest.mark.parametrize("specs, why", [
    ([tf.TensorSpec([None], tf.float32)],
     "Can not cast TensorSpec(shape=(None,), dtype=tf.float32, name=None) to " + _S3),
    ([tf.TensorSpec([3], tf.float32, name='q')],
     "Can not cast TensorSpec(shape=(3,), dtype=tf.float32, name='q') to " + _S3),
    ([tf.TensorSpec([3, 1], tf.float32)],
     "Can not cast TensorSpec(shape=(3, 1), dtype=tf.float32, name=None) to " + _S3),
    ([tf.TensorSpec([3], tf.int32)],
     "Can not cast TensorSpec(shape=(3,), dtype=tf.int32, name=None) to " + _S3),
    ([tf.TensorSpec([3], tf.float32)] * 2, "too many positional arguments"),
])
def test_get_concrete_function_with_specs_that_do_not_fit(specs, why):
    with pytest.raises(TypeError) as err:
        _s3().get_concrete_function(*specs)
    assert str(err.value).startswith(f"Binding inputs to tf.function failed due to `{why}`.")
    assert f"Received args: ({', '.join(repr(s) for s in specs)},) and kwargs: {{}}" in str(err.value) or len(specs) > 1
    assert str(err.value).endswith(f"for signature: (x: {_S3}).")


# --- what tf.function refuses (TensorFlow's words) ---
def test_returning_a_value_that_is_not_a_tensor_is_refused():
    g = tf.function(lambda x: x)
    with pytest.raises(TypeError, match=r"^To be compatible with tf.function, Python functions must return zero or more "
                                        r"Tensors or ExtensionTypes or None values; in compilation of <function .*>, "
                                        r"found return value of type function, which is not a Tensor or "
                                        r"ExtensionType\.$"):
        g(lambda: 1)


def test_numpy_arrays_are_keyed_by_shape_and_dtype_like_tensors():
    @tf.function
    def f(x):
        return x * 2
    f(np.array([1., 2.], np.float32))
    f(np.array([3., 4.], np.float32))
    f(np.array([3., 4.]))
    assert f.experimental_get_tracing_count() == 2
    assert repr(f.get_concrete_function(np.array([1., 2.], np.float32)).structured_input_signature) == (
        "((TensorSpec(shape=(2,), dtype=tf.float32, name='x'),), {})")


def test_unhashable_python_arguments_are_refused():
    f = tf.function(lambda x: x)
    with pytest.raises(TypeError, match=r"^Could not generate a generic TraceType for \{1, 2\}\.Please verify that it "
                                        r"is immutable/hashable\. Otherwise, consider implementing the Tracing "
                                        r"Protocol for it\."):
        f({1, 2})


def test_refused_tensor_is_shown_under_the_specs_name():
    """TensorFlow 2.21 shows the refused tensor as a TensorSpec carrying the signature spec's name."""
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="xx")])
    def f(x):
        return x
    for value, shown in ((tf.ones([3]), "TensorSpec(shape=(3,), dtype=tf.float32, name='xx')"),
                         (tf.ones([2, 3], tf.int32), "TensorSpec(shape=(2, 3), dtype=tf.int32, name='xx')")):
        with pytest.raises(TypeError) as info:
            f(value)
        assert str(info.value).startswith(f"Binding inputs to tf.function failed due to `Can not cast {shown} to "
                                          f"TensorSpec(shape=(None, 3), dtype=tf.float32, name='xx')`")
