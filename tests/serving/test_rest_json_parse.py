"""The REST API's JSON parsing: orjson where it is installed, and always the value Python's json module reads
(the reference): the same floats bit for bit, integers beyond 64 bits still integers, NaN and Infinity
accepted, and the same error messages for malformed documents."""
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eagerflow.serving import rest_predict
from eagerflow.serving.errors import ServingError


def _same(a, b) -> bool:
    """Equal values of equal Python types; floats compared bit for bit (-0.0 is not 0.0, NaN is NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a.hex() == b.hex() if not math.isnan(a) else math.isnan(b)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return a == b


_scalars = st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers(-2 ** 70, 2 ** 70),
                     st.integers(-2 ** 63, 2 ** 64 - 1), st.booleans(), st.none(), st.text(max_size=5))
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["instances", "inputs", "signature_name"]), _values, min_size=1))
def test_documents_read_as_the_json_module_reads_them(document):
    body = json.dumps(document).encode()
    assert _same(rest_predict.parse_json(body), json.loads(body))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), min_size=1, max_size=50))
def test_float_rows_written_as_text_read_back_bit_for_bit(row):
    body = ('{"instances": [[' + ",".join(repr(v) for v in row) + "]]}").encode()
    assert _same(rest_predict.parse_json(body)["instances"][0], json.loads(body)["instances"][0])


@pytest.mark.parametrize("body, expected", [
    (b'{"instances": [NaN, Infinity, -Infinity]}', [math.nan, math.inf, -math.inf]),
    (b'{"instances": [1e400, -1e400]}', [math.inf, -math.inf]),  # beyond a double: json reads infinities
    (b'{"instances": [18446744073709551616, -9223372036854775809]}', [2 ** 64, -2 ** 63 - 1]),
    (b'{"instances": [9223372036854775807, 0.1234567890123456789]}', [2 ** 63 - 1, 0.12345678901234568]),
    ('{"instances": ["\\ud800"]}'.encode(), ["\ud800"]),  # a lone surrogate, as json reads it
    (b'\xef\xbb\xbf{"instances": [1]}', [1]),  # a UTF-8 byte-order mark
    ('{"instances": [2.5]}'.encode("utf-16"), [2.5]),  # UTF-16, which json detects
])
def test_what_strict_parsers_refuse_reads_as_json_reads_it(body, expected):
    assert _same(rest_predict.parse_json(body)["instances"], expected)


@pytest.mark.parametrize("body, message", [
    (b'{"instances": [1, 2', "JSON Parse error: Expecting ',' delimiter at offset: 19"),
    (b'{"instances": [1,]}', "JSON Parse error: Expecting value at offset: 17"),
    (b'{"instances": [01]}', "JSON Parse error: Expecting ',' delimiter at offset: 16"),
    (b'{"instances": ["\xff"]}', "JSON Parse error: Invalid encoding in string."),
    (b'[1]', "JSON Value: [1] Is not object"),
])
def test_malformed_documents_keep_the_json_modules_messages(body, message):
    with pytest.raises(ServingError) as raised:
        rest_predict.parse_json(body)
    assert raised.value.message == message


def test_without_orjson_the_json_module_reads_every_document(monkeypatch):
    monkeypatch.setattr(rest_predict, "orjson", None)
    body = b'{"instances": [[0.1, -0.0, 5e-324, 18446744073709551616, NaN]]}'
    assert _same(rest_predict.parse_json(body), json.loads(body))


def test_orjson_reads_a_plain_row_when_installed():
    orjson = pytest.importorskip("orjson", reason="orjson (eagerflow[serve]) is not installed")
    body = b'{"instances": [[0.25, 1e-07, -3]]}'
    assert _same(rest_predict.parse_json(body), orjson.loads(body))
    assert rest_predict.orjson is orjson


def test_long_digit_runs_are_found_exactly_from_19_digits():
    assert rest_predict._has_long_digits(b"[1234567890123456789]")
    assert not rest_predict._has_long_digits(b"[123456789012345678, 0.123456789012345678]")
