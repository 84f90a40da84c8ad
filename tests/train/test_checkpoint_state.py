"""The `checkpoint` state file (TensorFlow's CheckpointState in text form) and what reads it: get_checkpoint_state,
latest_checkpoint, checkpoints_iterator, and CheckpointManager's keep_checkpoint_every_n_hours and
checkpoint_interval, as TensorFlow 2.21 behaves."""
import os
import time

import pytest

import eagerflow as tf
from eagerflow.train import checkpoint_manager as manager_module
from eagerflow.train.checkpoint_state import CheckpointState, parse_state

# Written by TensorFlow 2.21's CheckpointManager(max_to_keep=2) after three saves.
TF_STATE = ('model_checkpoint_path: "ckpt-3"\n'
            'all_model_checkpoint_paths: "ckpt-2"\n'
            'all_model_checkpoint_paths: "ckpt-3"\n'
            'all_model_checkpoint_timestamps: 1796497433.1069777\n'
            'all_model_checkpoint_timestamps: 1796497433.1350083\n'
            'last_preserved_timestamp: 1796497431.69213\n')


def test_the_text_form_reads_and_writes_as_tensorflows():
    state = parse_state(TF_STATE, "checkpoint")
    assert state.model_checkpoint_path == "ckpt-3"
    assert state.all_model_checkpoint_paths == ["ckpt-2", "ckpt-3"]
    assert state.all_model_checkpoint_timestamps == [1796497433.1069777, 1796497433.1350083]
    assert state.last_preserved_timestamp == 1796497431.69213
    assert str(state) == TF_STATE
    odd = CheckpointState('we"ird\\pa\nth-é', ["a b"])
    assert str(odd) == 'model_checkpoint_path: "we\\"ird\\\\pa\\nth-\\303\\251"\nall_model_checkpoint_paths: "a b"\n'
    assert parse_state(str(odd), "x") == odd


@pytest.mark.parametrize("text,words", [  # protobuf's text format parser's words, after the file and line
    ('model_checkpoint_path: ckpt-3\n', "line 1: not a checkpoint state .*Expected string"),
    ('\nunknown_field: "x"\n', 'line 2: not a checkpoint state .*has no field named "unknown_field"'),
    ('all_model_checkpoint_timestamps: soon\n', "line 1: .*Couldn't parse float: soon"),
    ('\n\nmodel_checkpoint_path: "\\377"', "line 3: .*Couldn't parse string"),
    ('model_checkpoint_path: "a"\nmodel_checkpoint_path: "b"\n', 'line 2: .*multiple "model_checkpoint_path"'),
])
def test_a_damaged_state_file_is_data_loss_naming_it(tmp_path, text, words):
    (tmp_path / "checkpoint").write_text(text)
    with pytest.raises(tf.errors.DataLossError, match=f"{tmp_path / 'checkpoint'}: .*{words}"):
        tf.train.get_checkpoint_state(str(tmp_path))
    (tmp_path / "checkpoint").write_bytes(b"\xff\xfe")
    with pytest.raises(tf.errors.DataLossError, match="not UTF-8"):
        tf.train.latest_checkpoint(str(tmp_path))


def test_paths_are_relative_inside_the_directory_and_absolute_when_read(tmp_path):
    (tmp_path / "checkpoint").write_text(TF_STATE)
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert state.all_model_checkpoint_paths == [str(tmp_path / "ckpt-2"), str(tmp_path / "ckpt-3")]
    assert tf.train.latest_checkpoint(str(tmp_path)) is None  # recorded, but its files are not there
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    ckpt.write(str(tmp_path / "ckpt-3"))
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "ckpt-3")


def test_keep_checkpoint_every_n_hours_keeps_one_per_period_unlisted(tmp_path, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(manager_module, "_now", lambda: clock[0])
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=1, keep_checkpoint_every_n_hours=1)
    for _ in range(4):  # saves at 3000 s, 5000 s, 7000 s, 9000 s; the last preserved starts at 1000 s
        clock[0] += 2000.0
        manager.save()
    # TensorFlow's sweep: ckpt-1 (3000 s) is within the hour after 1000 s: removed; ckpt-2 (5000 s) is not: kept
    # on disk, unlisted, and the last preserved; ckpt-3 (7000 s) is within the hour after it: removed
    assert sorted(p for p in os.listdir(tmp_path) if p.endswith(".index")) == ["ckpt-2.index", "ckpt-4.index"]
    assert manager.checkpoints == [str(tmp_path / "ckpt-4")]
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert state.last_preserved_timestamp == 5000.0 and state.all_model_checkpoint_timestamps == [9000.0]


def test_checkpoint_interval_skips_saves_until_enough_steps(tmp_path):
    step = tf.Variable(0, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(step=step)
    with pytest.raises(ValueError, match="`step_counter` should be passed if `checkpoint_interval` is not None."):
        tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=3, checkpoint_interval=5)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=3, step_counter=step,
                                         checkpoint_interval=5)
    saved = []
    for i in range(12):
        step.assign(i)
        saved.append(manager.save())
    assert [p is not None for p in saved] == [i in (0, 5, 10) for i in range(12)]
    assert manager.save(check_interval=False) == str(tmp_path / "ckpt-4")
    initialized = []
    fresh = tf.train.CheckpointManager(tf.train.Checkpoint(step=tf.Variable(0, dtype=tf.int64)),
                                       str(tmp_path / "none"), max_to_keep=1, init_fn=lambda: initialized.append(1))
    assert fresh.restore_or_initialize() is None and initialized == [1]


def test_checkpoints_iterator_yields_each_new_checkpoint_then_times_out(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    ckpt.save(str(tmp_path / "ck"))
    start = time.time()
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0.2)) == [str(tmp_path / "ck-1")]
    assert time.time() - start < 5
    calls = []
    iterator = tf.train.checkpoints_iterator(str(tmp_path), timeout=0.1,
                                             timeout_fn=lambda: calls.append(1) or len(calls) >= 2)
    assert next(iterator) == str(tmp_path / "ck-1")
    assert list(iterator) == [] and calls == [1, 1]


def test_a_crafted_state_file_never_makes_the_manager_remove_other_files(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    for name in ("precious.index", "precious.data-00000-of-00001", "ckpt-1.index"):
        (outside / name).write_bytes(b"keep")
    directory = tmp_path / "ckpts"
    directory.mkdir()
    (directory / "checkpoint").write_text(
        f'model_checkpoint_path: "../outside/precious"\nall_model_checkpoint_paths: "{outside / "precious"}"\n'
        'all_model_checkpoint_paths: "../outside/ckpt-1"\nall_model_checkpoint_paths: "ckpt-x"\n')
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), str(directory), max_to_keep=1)
    manager.save()
    manager.save()
    assert sorted(p.name for p in outside.iterdir()) == ["ckpt-1.index", "precious.data-00000-of-00001",
                                                        "precious.index"]
    assert all(p.read_bytes() == b"keep" for p in outside.iterdir())
    assert manager.checkpoints == [str(directory / "ckpt-2")]
    assert sorted(os.listdir(directory)) == ["checkpoint", "ckpt-2.data-00000-of-00001", "ckpt-2.index"]
