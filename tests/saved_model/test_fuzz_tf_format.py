"""Fuzzing the loader of TensorFlow's layout: random damage to saved_model.pb, the variables bundle (index
and data) and fingerprint.pb. Besides byte-level damage (a flipped byte, a truncation, inserted or zeroed
bytes, a deleted file), a hostile author's edit: one integer field anywhere in the SavedModel message (a
shape's dimension, an attribute, a node reference, a dtype) set to a huge, negative or wrong value in a
message that still parses. Every case must end in one of two ways:
- the load succeeds, and calling what it restored returns or fails with a framework error, within a time
  bound;
- the load raises tf.errors.DataLossError whose message names a file of the model (or, for a deleted
  bundle file, NotFoundError, as TensorFlow raises).
No other exception, no hang, no large allocation.

TF_FORMAT_FUZZ_CASES cases run in the normal suite; set EAGERFLOW_FUZZ_CASES (e.g. 5000) for a long run."""
import os
import random
import resource
import shutil
import signal

import numpy as np
import pytest

import eagerflow as tf

_FD = pytest.importorskip("google.protobuf.descriptor").FieldDescriptor  # its CPPTYPE_ constants: the class's in every protobuf

TF_FORMAT_FUZZ_CASES = int(os.environ.get("EAGERFLOW_FUZZ_CASES", "200"))
CALL_SECONDS = 5
HOSTILE = [-1, -2, 0, 1, 7, 2 ** 31 - 1, 2 ** 31, 2 ** 40, 2 ** 62, 99999]


class Fuzzed(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(1.5)
        self.table = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([], tf.int32)])
    def run(self, x, n):
        def body(i, acc):
            acc = tf.cond(tf.reduce_sum(acc) > 50.0, lambda: acc - self.scale, lambda: acc * 2.0 + 1.0)
            return i + 1, acc
        _, acc = tf.while_loop(lambda i, acc: i < n, body, [0, x], maximum_iterations=6)
        return {"acc": tf.matmul(acc, self.table), "total": tf.reduce_sum(acc)}

    @tf.function
    def plain(self, x):
        return tf.nn.relu(x * self.scale - 1.0)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def train(self, x):
        """A loop's gradient (SymbolicGradient of the forward loop's function) in the damaged files
        too, bounded by maximum_iterations as a damaged loop may never end."""
        def body(i, h):
            return i + 1, tf.tanh(tf.matmul(h, self.table[:, :2]) * self.scale)
        with tf.GradientTape() as tape:
            _, h = tf.while_loop(lambda i, h: i < 3, body, [0, x], maximum_iterations=5)
            loss = tf.reduce_sum(h * h)
        return tape.gradient(loss, [self.scale, self.table])


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    m = Fuzzed()
    m.plain(tf.constant([1.0, -2.0]))
    directory = tmp_path_factory.mktemp("fuzz_tf") / "model"
    tf.saved_model.save(m, str(directory), signatures={"serving_default": m.run})
    assert not (directory / "saved_model.json").exists() and not (directory / "tensors").exists()
    return directory


def _integer_fields(message, found, depth=0):
    """(message, field descriptor, index or None) of every integer or enum value set in `message`."""
    if depth > 40:
        return
    for field, value in message.ListFields():
        if field.message_type is not None:
            if field.message_type.GetOptions().map_entry:
                for item in value.values():
                    if hasattr(item, "ListFields"):
                        _integer_fields(item, found, depth + 1)
            elif _repeated(field):
                for item in value:
                    _integer_fields(item, found, depth + 1)
            else:
                _integer_fields(value, found, depth + 1)
        elif field.cpp_type in (_FD.CPPTYPE_INT32, _FD.CPPTYPE_INT64, _FD.CPPTYPE_UINT32,
                                _FD.CPPTYPE_UINT64, _FD.CPPTYPE_ENUM):
            if _repeated(field):
                found.extend((message, field, i) for i in range(len(value)))
            else:
                found.append((message, field, None))


def _repeated(field):
    flag = getattr(field, "is_repeated", None)
    return flag if flag is not None else field.label == field.LABEL_REPEATED


def _hostile_field(rng, path):
    from eagerflow._src.formats.protos import saved_model_pb2
    message = saved_model_pb2.SavedModel.FromString(path.read_bytes())
    found = []
    _integer_fields(message, found)
    owner, field, index = rng.choice(found)
    value = rng.choice(HOSTILE)
    if field.cpp_type in (_FD.CPPTYPE_UINT32, _FD.CPPTYPE_UINT64):
        value = abs(value)
    if field.cpp_type in (_FD.CPPTYPE_INT32, _FD.CPPTYPE_UINT32, _FD.CPPTYPE_ENUM):
        value = max(min(value, 2 ** 31 - 1), -2 ** 31) if field.cpp_type != _FD.CPPTYPE_UINT32 else min(value,
                                                                                                         2 ** 32 - 1)
    try:
        if index is None:
            setattr(owner, field.name, value)
        else:
            getattr(owner, field.name)[index] = value
    except (ValueError, TypeError):  # a closed enum refuses the value: keep the message as it was
        return "no change"
    path.write_bytes(message.SerializeToString())
    return f"{field.full_name} = {value}"


def _mutate(rng, directory):
    files = sorted(str(p.relative_to(directory)) for p in directory.rglob("*") if p.is_file())
    name = rng.choice(files)
    path = directory / name
    kind = rng.choice(["flip", "truncate", "insert", "zero", "field", "field", "field", "delete"])
    if kind == "field":
        return _hostile_field(rng, directory / "saved_model.pb") + " in saved_model.pb"
    if kind == "delete":
        path.unlink()
        return f"deleted {name}"
    data = bytearray(path.read_bytes())
    i = rng.randrange(len(data) + (kind == "insert")) if data else 0
    if kind == "flip" and data:
        data[i] ^= rng.randrange(1, 256)
    elif kind == "truncate":
        data = data[:i]
    elif kind == "insert":
        data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))
    else:
        n = rng.randrange(1, 64)
        data[i:i + n] = bytes(len(data[i:i + n]))
    path.write_bytes(bytes(data))
    return f"{kind} at {i} of {name}"


class _TimedOut(BaseException):
    """Not an Exception, so nothing in the framework can swallow it."""


def _on_alarm(signum, frame):
    raise _TimedOut()


def _exercise(loaded):
    x = tf.constant([[1.0, 2.0], [3.0, -1.0]])
    for call in (lambda: loaded.signatures["serving_default"](x=x, n=tf.constant(4)),
                 lambda: loaded.run(x, tf.constant(3)), lambda: loaded.plain(tf.constant([1.0, -2.0])),
                 lambda: loaded.train(x)):
        try:
            call()
        except (tf.errors.OpError, TypeError, ValueError, KeyError, AttributeError):
            pass  # a framework error, or a mutation renamed what this test calls


def _run_case(template, scratch, case):
    rng = random.Random(case)
    directory = scratch / f"case{case}"
    shutil.copytree(template, directory)
    description = _mutate(rng, directory)
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    try:
        try:
            loaded = tf.saved_model.load(str(directory))
        except (tf.errors.DataLossError, tf.errors.NotFoundError) as err:
            assert str(directory) in str(err), f"case {case} ({description}): {err}"
            return "refused"
        except OSError as err:  # saved_model.pb deleted: TensorFlow's missing-model error
            assert "saved_model.pb" in description and "SavedModel file does not exist" in str(err), \
                f"case {case} ({description}): {err}"
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
    out = loaded.signatures["serving_default"](x=tf.constant([[1.0, 2.0]]), n=tf.constant(2))
    acc = (np.array([[1.0, 2.0]]) * 2 + 1) * 2 + 1
    np.testing.assert_allclose(out["acc"].numpy(), acc @ np.arange(6).reshape(2, 3))
    x = tf.constant([[1.0, 2.0], [3.0, -1.0]])
    reference = Fuzzed()  # a method holds its instance weakly: keep it alive
    for got, expected in zip(loaded.train(x), reference.train(x)):
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6)


def test_random_damage_loads_or_raises_data_loss_naming_the_file(template, tmp_path):
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    outcomes = {"loaded": 0, "refused": 0}
    try:
        for case in range(TF_FORMAT_FUZZ_CASES):
            outcomes[_run_case(template, tmp_path, case)] += 1
    finally:
        signal.signal(signal.SIGALRM, previous)
    print(f"{TF_FORMAT_FUZZ_CASES} fuzz cases: {outcomes}")
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    assert grown_mib < 500, f"the fuzz cases grew the process by {grown_mib:.0f} MiB"
    assert outcomes["refused"] > 0
