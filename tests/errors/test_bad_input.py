"""Bad input gets TensorFlow's answer, eagerly and traced: every row of bad_input_cases.py runs on eagerflow
and is compared with what TensorFlow 2.21 answered (bad_input_oracle.json, written by
make_bad_input_oracle.py): the same error class with TensorFlow's key words, or a result with the same
dtypes and shapes where TensorFlow answers.

The key words of a message are its first line without the per-mode parts (eager's " [Op:Name]" tag, a
graph's "Graph execution error" heading, node and source lines, a function node's "{{...}}" prefix,
AutoGraph's "in user code:" frames, the " for '{{node ...}}'" description of the node that refused, the allocator's name in an OOM message).
"""
from __future__ import annotations

import json
import os
import re
import sys

import pytest

import eagerflow as tf

sys.path.insert(0, os.path.dirname(__file__))
from bad_input_cases import make_cases  # noqa: E402
from bad_input_open import OPEN, ORDER_DEPENDENT  # noqa: E402
from bad_input_outcome import outcome  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "bad_input_oracle.json")) as _f:
    ORACLE = json.load(_f)["rows"]

CASES = dict(make_cases(tf))


def key_words(message: str) -> str:
    """The part of an error message both modes and both frameworks share (see the module docstring)."""
    if message.startswith("in user code:"):
        raised = [i for i, line in enumerate(message.split("\n")) if re.match(r"^\s+\w+(Error|Exception): ", line)]
        if raised:
            message = message.split("\n", raised[-1])[-1].strip().split(": ", 1)[1]
    if message.startswith("Graph execution error:"):
        message = message[len("Graph execution error:"):].lstrip("\n")
        if message.startswith("Detected at node "):
            message = message.split("\n\n", 1)[-1]
    message = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", message)
    message = message.split(" [Op:")[0].split("\n\t [[")[0]
    message = re.sub(r" by allocator \w+", "", message)
    message = re.sub(r" at 0x[0-9a-f]+>", ">", message)  # an object's address  # the allocator's name depends on TensorFlow's build
    line = message.strip().split("\n")[0].split(" for '{{node ")[0]
    return " ".join(line.split())


def compare(expected, got):
    """None when eagerflow's outcome matches TensorFlow's, else why not."""
    if expected[0] != got[0]:
        return f"TensorFlow {expected[:2]} but eagerflow {got}"
    if expected[0] == "ok":
        return None if expected[1] == got[1] else f"TensorFlow returns {expected[1]}, eagerflow {got[1]}"
    if expected[1] != got[1]:
        return f"TensorFlow raises {expected[1]}: {expected[2][:200]!r}, eagerflow {got[1]}: {got[2][:200]!r}"
    want, have = key_words(expected[2]), key_words(got[2])
    if want != have:
        return f"message {have!r}, TensorFlow {want!r}"
    return None


def _rows():
    for name in sorted(CASES):
        for mode in ("eager", "traced"):
            marks = [pytest.mark.xfail(strict=True, reason="still differs from TensorFlow")] \
                if mode in OPEN.get(name, ()) else []
            if mode in ORDER_DEPENDENT.get(name, ()):
                marks = [pytest.mark.xfail(strict=False, reason="the answer depends on the calls before it")]
            yield pytest.param(name, mode, marks=marks, id=f"{name}-{mode}")


@pytest.mark.parametrize("name, mode", list(_rows()))
def test_bad_input_answers_as_tensorflow(name, mode):
    fn = CASES[name]
    got = outcome(tf, fn if mode == "eager" else (lambda: tf.function(fn)()))
    problem = compare(ORACLE[name][mode], got)
    assert problem is None, f"{name} ({mode}): {problem}"


def test_table_is_wide_enough():
    assert len(CASES) >= 200 and set(CASES) == set(ORACLE) and set(OPEN) <= set(CASES)


def test_names_python_normalises_stay_apart_in_generated_code():
    """'µ' (micro sign) and 'μ' (Greek mu), 'ﬁ' and 'fi' are one identifier to Python (NFKC): generated
    code must keep the tensors they name apart."""
    specs = [tf.TensorSpec([], tf.float32, name=n) for n in ("\u00b5", "\u03bc", "\ufb01", "fi")]

    @tf.function(input_signature=specs)
    def f(a, b, c, d):
        return a + 1.0, b * 3.0, c - 1.0, d * 0.5

    got = [float(t.numpy()) for t in f(*[tf.constant(v) for v in (1.0, 2.0, 3.0, 4.0)])]
    assert got == [2.0, 6.0, 2.0, 2.0]


@pytest.mark.parametrize("compression", ["", "GZIP", "ZLIB"])
def test_record_header_claiming_more_than_the_file_is_data_loss_naming_the_file(tmp_path, compression):
    """A length of 2**40 with a valid checksum: refused before anything is allocated for it (TensorFlow
    itself crashes on this file), as DataLossError naming the file."""
    import gzip
    import struct
    import zlib

    from eagerflow._src.io.records import frame, masked_crc

    length = struct.pack("<Q", 2**40)
    raw = frame(b"ok") + length + struct.pack("<I", masked_crc(length)) + b"abcd"
    raw = {"": raw, "GZIP": gzip.compress(raw), "ZLIB": zlib.compress(raw)}[compression]
    path = tmp_path / "huge.tfrecord"
    path.write_bytes(raw)
    records = iter(tf.data.TFRecordDataset(str(path), compression_type=compression))
    assert next(records).numpy() == b"ok"
    with pytest.raises(tf.errors.DataLossError, match="truncated record at 18' .*1099511627776 bytes, .*huge.tfrecord"):
        next(records)
