"""Fuzzing the reader of eagerflow's earlier format (saved_model.json + tensors/, which old
directories hold and load still reads): random mutations of such a model's files. (What a save
writes today, TensorFlow's layout, is fuzzed by test_fuzz_tf_format.py.)

Each case copies a saved model, applies one mutation (a byte flip, a truncation, an insertion, a
zeroed run, a number in the JSON made huge or negative, a deleted tensor file) and loads it. Half
the tensor-file mutations also rewrite the file's checksum in the document (a hostile author rather
than a disk fault), so the .npy checks behind the checksum are exercised too. Every case must end
in one of two ways:
- the load succeeds, and calling the restored functions returns or fails with a framework error
  (tf.errors.OpError, or the TypeError/ValueError a call with arguments the function no longer
  accepts raises), within a time bound;
- the load raises tf.errors.DataLossError whose message starts with the path of a file of the model.
No other exception, no hang, no large allocation.

FUZZ_CASES cases run in the normal suite; set EAGERFLOW_FUZZ_CASES (e.g. 5000) for a long run.
"""
import hashlib
import json
import os
import random
import re
import resource
import shutil
import signal

import numpy as np
import pytest

import eagerflow as tf

from .protobuf_edits import legacy_save

FUZZ_CASES = int(os.environ.get("EAGERFLOW_FUZZ_CASES", "300"))
CALL_SECONDS = 5


class Fuzzed(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(1.5)
        self.table = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))
        self.count = tf.Variable(np.array([1, 2], np.int64), trainable=False)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([], tf.int32)])
    def run(self, x, n):
        def body(i, acc):
            acc = tf.cond(tf.reduce_sum(acc) > 50.0, lambda: acc - self.scale, lambda: acc * 2.0 + 1.0)
            return i + 1, acc
        _, acc = tf.while_loop(lambda i, acc: i < n, body, [0, x], maximum_iterations=6)
        return {"acc": tf.matmul(acc, self.table), "total": tf.reduce_sum(acc)}

    @tf.function
    def plain(self, x):
        return tf.nn.relu(x * self.scale - 1.0), tf.cast(self.count, tf.float32)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def train(self, x):
        """A loop's gradient (WhileGrad and its two sub-graphs) in the mutated files too. The loop
        is bounded by maximum_iterations: a mutation may make a valid loop endless (`i + i` for
        `i + 1`), which no validation can rule out, as in TensorFlow."""
        def body(i, h):
            return i + 1, tf.tanh(tf.matmul(h, self.table[:, :2]) * self.scale)
        with tf.GradientTape() as tape:
            _, h = tf.while_loop(lambda i, h: i < 3, body, [0, x], maximum_iterations=3)
            loss = tf.reduce_sum(h)
        return tape.gradient(loss, [self.scale, self.table])


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    m = Fuzzed()
    m.plain(tf.constant([1.0, -2.0]))
    directory = tmp_path_factory.mktemp("fuzz") / "model"
    legacy_save(m, directory, signatures={"serving_default": m.run})
    return directory


def _files(directory):
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*") if p.is_file())


def _mutate(rng, directory):
    """Applies one random mutation; returns its description."""
    files = _files(directory)
    name = rng.choice(files)
    path = directory / name
    data = bytearray(path.read_bytes())
    kind = rng.choice(["flip", "truncate", "insert", "zero", "number", "number", "delete"])
    if kind == "delete" and name != "saved_model.json":
        path.unlink()
        return f"deleted {name}"
    if kind == "number":
        name, path = "saved_model.json", directory / "saved_model.json"
        text = path.read_text()
        numbers = list(re.finditer(r"(?<![\w\"])-?\d+(\.\d+)?", text))
        match = rng.choice(numbers)
        new = rng.choice(["-1", "-2147483649", "1000000000000", str(2 ** 63), "1e308", "0", "7", "-0.5", "99999"])
        path.write_text(text[:match.start()] + new + text[match.end():])
        return f"number at {match.start()} of saved_model.json: {match.group()} -> {new}"
    if kind == "delete" or kind == "flip":
        i = rng.randrange(len(data))
        data[i] ^= rng.randrange(1, 256)
        detail = f"flip byte {i}"
    elif kind == "truncate":
        i = rng.randrange(len(data))
        data = data[:i]
        detail = f"truncate to {i}"
    elif kind == "insert":
        i = rng.randrange(len(data) + 1)
        data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))
        detail = f"insert at {i}"
    else:
        i = rng.randrange(len(data))
        n = rng.randrange(1, 64)
        data[i:i + n] = bytes(len(data[i:i + n]))
        detail = f"zero {n} bytes at {i}"
    path.write_bytes(bytes(data))
    if name.endswith(".npy") and rng.random() < 0.5:  # a hostile author: the checksum matches the new bytes
        document_path = directory / "saved_model.json"
        document = json.loads(document_path.read_text())
        _restamp(document, name, hashlib.sha256(bytes(data)).hexdigest())
        document_path.write_text(json.dumps(document))
        detail += " (checksum rewritten)"
    return f"{detail} of {name}"


def _restamp(node, name, digest):
    if isinstance(node, dict):
        if node.get("file") == name and "sha256" in node:
            node["sha256"] = digest
        for v in node.values():
            _restamp(v, name, digest)
    elif isinstance(node, list):
        for v in node:
            _restamp(v, name, digest)


class _TimedOut(BaseException):
    """Not an Exception, so nothing in the framework can swallow it."""


def _on_alarm(signum, frame):
    raise _TimedOut()


def _exercise(loaded):
    """Calls what the loaded model offers; framework errors are fine outcomes."""
    x = tf.constant([[1.0, 2.0], [3.0, -1.0]])
    calls = [lambda: loaded.signatures["serving_default"](x=x, n=tf.constant(4)),
             lambda: loaded.run(x, tf.constant(3)),
             lambda: loaded.plain(tf.constant([1.0, -2.0])),
             lambda: loaded.train(x)]
    for call in calls:
        try:
            call()
        except (tf.errors.OpError, TypeError, ValueError, KeyError, AttributeError):
            # KeyError/AttributeError: a mutation renamed the signature or attribute this test calls
            pass


def _run_case(template, scratch, case):
    rng = random.Random(case)
    directory = scratch / f"case{case}"
    shutil.copytree(template, directory)
    description = _mutate(rng, directory)
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    try:
        try:
            loaded = tf.saved_model.load(str(directory))
        except tf.errors.DataLossError as err:
            assert str(err).startswith(str(directory) + "/"), f"case {case} ({description}): {err}"
            return "refused"
        except _TimedOut:
            raise AssertionError(f"case {case} ({description}): load took more than {CALL_SECONDS}s") from None
        except Exception as err:
            raise AssertionError(f"case {case} ({description}): {type(err).__name__}: {err}") from err
        try:
            _exercise(loaded)
        except _TimedOut:
            raise AssertionError(f"case {case} ({description}): a call took more than {CALL_SECONDS}s") from None
        except Exception as err:
            raise AssertionError(f"case {case} ({description}): call raised {type(err).__name__}: {err}") from err
        return "loaded"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        shutil.rmtree(directory, ignore_errors=True)


def test_the_unmutated_model_loads_and_runs(template):
    loaded = tf.saved_model.load(str(template))
    x = tf.constant([[1.0, 2.0], [3.0, -1.0]])
    reference = Fuzzed()
    for got, expected in zip(loaded.train(x), reference.train(x)):
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6)
    out = loaded.signatures["serving_default"](x=tf.constant([[1.0, 2.0]]), n=tf.constant(2))
    acc = np.array([[1.0, 2.0]]) * 2 + 1
    acc = acc * 2 + 1
    np.testing.assert_allclose(out["acc"].numpy(), acc @ np.arange(6).reshape(2, 3))


def test_deleting_the_document_is_the_missing_model_oserror(template, tmp_path):
    shutil.copytree(template, tmp_path / "m")
    os.remove(tmp_path / "m" / "saved_model.json")
    with pytest.raises(OSError, match="SavedModel file does not exist at"):
        tf.saved_model.load(str(tmp_path / "m"))


def test_random_mutations_load_or_raise_data_loss_naming_the_file(template, tmp_path):
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    outcomes = {"loaded": 0, "refused": 0}
    try:
        for case in range(FUZZ_CASES):
            outcomes[_run_case(template, tmp_path, case)] += 1
    finally:
        signal.signal(signal.SIGALRM, previous)
    print(f"{FUZZ_CASES} fuzz cases: {outcomes}")  # shown with -s: the closing note's count
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    assert grown_mib < 512, f"peak memory grew by {grown_mib:.0f} MiB over {FUZZ_CASES} cases"
    # both outcomes happen: the mutations reach past the checksums and the schema
    assert outcomes["refused"] > FUZZ_CASES // 4 and outcomes["loaded"] > 0, outcomes
