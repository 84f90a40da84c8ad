"""The TensorFlow-layout fuzz test (test_fuzz_tf_format.py's damage: flipped, truncated, inserted or zeroed
bytes, deleted files, hostile integer fields) on SavedModels TensorFlow itself wrote (fixtures/tf_written/:
lookup tables, Case, TensorLists, ragged strings, saved custom gradients). Every case loads, and its
signatures return or fail with a framework error, or the load raises DataLossError (NotFoundError for a
deleted bundle file) naming the model's directory; nothing else, no hang."""
import os
import random
import shutil
import signal
from pathlib import Path

import pytest

import eagerflow as tf
from tests.interop.tf_savedmodel_compare import recorded_files
from tests.saved_model.test_fuzz_tf_format import _mutate, _on_alarm, _TimedOut

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "tf_written"
CASES = int(os.environ.get("EAGERFLOW_FUZZ_CASES", "40"))
SECONDS = 10


def _calls(name):
    stored = recorded_files(FIXTURES / name / "expected.npz", FIXTURES / name / "expected.strings.json")
    return [(call.split(":", 1)[1], inputs) for call, (inputs, _) in stored.items() if call.startswith("signature:")]


def _case(name, scratch, case, calls):
    rng = random.Random(case)
    directory = scratch / f"{name}{case}"
    shutil.copytree(FIXTURES / name / "model", directory)
    description = _mutate(rng, directory)
    signal.setitimer(signal.ITIMER_REAL, SECONDS)
    try:
        try:
            loaded = tf.saved_model.load(str(directory))
        except (tf.errors.DataLossError, tf.errors.NotFoundError) as err:
            assert str(directory) in str(err), f"{name} case {case} ({description}): {err}"
            return "refused"
        except OSError as err:
            assert "SavedModel file does not exist" in str(err), f"{name} case {case} ({description}): {err}"
            return "refused"
        for key, inputs in calls:
            try:
                loaded.signatures[key](**{k: tf.constant(v) for k, v in inputs.items()})
            except (tf.errors.OpError, TypeError, ValueError, KeyError, AttributeError):
                pass
        return "loaded"
    except _TimedOut:
        raise AssertionError(f"{name} case {case} ({description}): more than {SECONDS}s") from None
    except AssertionError:
        raise
    except Exception as err:
        raise AssertionError(f"{name} case {case} ({description}): {type(err).__name__}: {err}") from err
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        shutil.rmtree(directory, ignore_errors=True)


@pytest.mark.parametrize("name", ["preprocessing", "control_flow", "identity_n"])
def test_damaged_tensorflow_written_models_load_or_raise_data_loss(name, tmp_path):
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    calls = _calls(name)
    outcomes = {"loaded": 0, "refused": 0}
    try:
        for case in range(CASES):
            outcomes[_case(name, tmp_path, case, calls)] += 1
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert outcomes["refused"] > 0 and sum(outcomes.values()) == CASES
