"""tf.io.decode_csv (op DecodeCSV) against TensorFlow 2.21: values and messages recorded from the oracle."""
import numpy as np
import pytest

import eagerflow as tf

D = tf.io.decode_csv


def _np(ts):
    return [t.numpy() for t in ts]


def test_columns_take_their_defaults_dtype():
    a, b, c = D(["1,2.5,a", "3,,b"], [[0], [1.0], ["z"]])
    assert (a.dtype, b.dtype, c.dtype) == (tf.int32, tf.float32, tf.string)
    np.testing.assert_array_equal(a.numpy(), [1, 3])
    np.testing.assert_array_equal(b.numpy(), [2.5, 1.0])  # the empty field takes the default
    assert list(c.numpy()) == [b"a", b"b"]
    x, y = D("1,2", [tf.constant(0, tf.int64), tf.constant(0.0, tf.float64)])
    assert (x.shape, x.dtype, x.numpy(), y.dtype, y.numpy()) == ((), tf.int64, 1, tf.float64, 2.0)
    x, y = D([["1,2"], ["3,4"]], [[0], [0]])
    np.testing.assert_array_equal(x.numpy(), [[1], [3]])
    assert _np(D(["99999999999"], [tf.constant([0], tf.int64)]))[0].tolist() == [99999999999]


def test_quotes_delimiters_na_and_select_cols():
    assert [list(v) for v in _np(D(['"a,b",c', '"x""y",z'], [[""], [""]]))] == [[b"a,b", b'x"y'], [b"c", b"z"]]
    assert [list(v) for v in _np(D(['"a",c'], [[""], [""]], use_quote_delim=False))] == [[b'"a"'], [b"c"]]
    assert [v.tolist() for v in _np(D(["1|2"], [[0], [0]], field_delim="|"))] == [[1], [2]]
    assert [v.tolist() for v in _np(D(["NA,2"], [[7], [0]], na_value="NA"))] == [[7], [2]]
    assert [v.tolist() for v in _np(D(["1,2,3"], [[0], [0]], select_cols=[0, 2]))] == [[1], [3]]
    assert [v.tolist() for v in _np(D(['"12",3'], [[0], [0]]))] == [[12], [3]]
    assert _np(D(["NA"], [["d"]], na_value="NA"))[0].tolist() == [b"d"]


def test_number_forms_as_strtod():
    values = _np(D([" 1.5,1e3,inf,-nan, 2 "], [[0.0]] * 4 + [[0]]))
    assert [v.tolist() for v in values[:3]] == [[1.5], [1000.0], [np.inf]]
    assert np.isnan(values[3][0]) and values[4].tolist() == [2]
    assert [v.tolist() for v in _np(D(["+2,-3"], [[0], [0]]))] == [[2], [-3]]
    assert _np(D(["0x10"], [[0.0]]))[0].tolist() == [16.0]


@pytest.mark.parametrize("records, defaults, kwargs, message", [
    (["1,"], [[0], tf.constant([], tf.int32)], {}, "Field 1 is required but missing in record 0!"),
    (["1,2"], [[0], [0], [0]], {}, "Expect 3 fields but have 2 in record 0"),
    (["1,2,3", "1,2,3,4"], [[0], [0], [0]], {}, "Expect 3 fields but have 4 in record 1"),
    (["x,2"], [[0], [0]], {}, "Field 0 in record 0 is not a valid int32: x"),
    (["1,y"], [[0], [0.0]], {}, "Field 1 in record 0 is not a valid float: y"),
    (["99999999999,2"], [[0], [0]], {}, "Field 0 in record 0 is not a valid int32: 99999999999"),
    (["0x10"], [[0]], {}, "Field 0 in record 0 is not a valid int32: 0x10"),
    (['"a,b'], [[""], [""]], {}, "Quoted field has to end with quote followed by delim or end"),
    (['a"b",c'], [[""], [""]], {}, "Unquoted fields cannot have quotes/CRLFs inside"),
    (["1|2"], [[0], [0]], {"field_delim": "||"}, "field_delim should be only 1 char"),
    (["1,2,3"], [[0], [0]], {"select_cols": [0, 5]}, "Expect 2 fields but have 1 in record 0"),
    (["1"], [[1, 2]], {}, "There should only be 1 default per field but field 0 has 2"),
    ([""], [[5], [6]], {}, "Expect 2 fields but have 0 in record 0"),
])
def test_errors_eager_and_traced(records, defaults, kwargs, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        D(records, defaults, **kwargs)
    assert str(info.value) == f"{message} [Op:DecodeCSV]"
    traced = tf.function(lambda r: D(r, defaults, **kwargs))
    with pytest.raises(tf.errors.InvalidArgumentError, match=message.replace("|", "\\|")):
        traced(tf.constant(records))


def test_checks_made_when_called():
    with pytest.raises(ValueError, match="^select_cols is not strictly increasing.$"):
        D(["1,2,3"], [[0], [0]], select_cols=[2, 0])
    with pytest.raises(ValueError, match="^Length of select_cols and record_defaults do not match.$"):
        D(["1,2,3"], [[0], [0]], select_cols=[0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'OUT_TYPE' of bool is not in the list "
                                                            "of allowed values: float, double, int32, int64, string"):
        D(["1"], [[True]])


def test_traced_shapes_and_op():
    cf = tf.function(lambda r: D(r, [[0], [0.0]])).get_concrete_function(tf.TensorSpec([None], tf.string))
    assert [t.shape.as_list() for t in cf.structured_outputs] == [[None], [None]]
    assert "DecodeCSV" in [op.type for op in cf.graph.get_operations()]
    a, b = cf(tf.constant(["4,0.5"]))
    assert (a.numpy().tolist(), b.numpy().tolist()) == ([4], [0.5])
