"""Saves never destroy the previous save: every writer (SavedModel, checkpoints and CheckpointManager's
state file, `.keras`, `.weights.h5`, TFRecord files, tf.io.write_file) either completes or leaves what
was there as it was, loadable, with no temporary file left beside it.

Failures are injected at every write call in turn (an OSError "No space left on device", then a
KeyboardInterrupt as Ctrl-C raises it), on a real full filesystem (a small tmpfs, where the machine
lets the test mount one), and by errors in the saved object itself (TensorFlow's ValueError for
`signatures={1: f}`). After each failure the previous save loads and gives the previous values."""
import builtins
import errno
import os
import shutil
import subprocess

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.io.atomic import TEMP_MARK


class InjectedFailure:
    """Makes the n-th write call (counting every file opened for writing) raise `error`."""

    def __init__(self, monkeypatch, fail_at, error):
        self.calls, self.fail_at, self.error = 0, fail_at, error
        real_open, real_fdopen = builtins.open, os.fdopen
        injector = self

        class Writer:
            def __init__(self, fh):
                self._fh = fh

            def write(self, data):
                injector.calls += 1
                if injector.calls == injector.fail_at:
                    raise injector.error()
                return self._fh.write(data)

            def __getattr__(self, name):
                return getattr(self._fh, name)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return self._fh.__exit__(*exc)

            def __iter__(self):
                return iter(self._fh)

        def wrap(fh, mode):
            return Writer(fh) if any(c in str(mode) for c in "wax+") else fh

        monkeypatch.setattr(builtins, "open", lambda file, mode="r", *a, **k: wrap(real_open(file, mode, *a, **k), mode))
        monkeypatch.setattr(os, "fdopen", lambda fd, mode="r", *a, **k: wrap(real_fdopen(fd, mode, *a, **k), mode))


def _disk_full():
    return OSError(errno.ENOSPC, "No space left on device")


def _no_temporaries(directory):
    left = [name for root, dirs, files in os.walk(directory) for name in dirs + files if TEMP_MARK in name]
    assert left == []


def _every_failure(monkeypatch, reset, save, check_previous, directory):
    """Runs `save` with a failure injected at write call 1, 2, ... until it completes; after each failure
    the previous save must still load (`check_previous`) and no temporary may remain. Once for a full disk
    and once for Ctrl-C, each starting from the previous save that `reset` writes. Returns the count."""
    for error in (_disk_full, KeyboardInterrupt):
        reset()
        check_previous()
        fail_at = 1
        while True:
            with monkeypatch.context() as patch:
                injector = InjectedFailure(patch, fail_at, error)
                try:
                    save()
                    completed = True
                except (OSError, KeyboardInterrupt, tf.errors.OpError) as err:
                    completed = False
                    assert isinstance(err, (KeyboardInterrupt,)) or "No space left" in str(err)
            if completed:
                assert injector.calls < fail_at  # the save completed: it made fewer write calls than that
                break
            check_previous()
            _no_temporaries(directory)
            fail_at += 1
        assert fail_at > 1, "the save made no write call at all: the injection tested nothing"
    return fail_at


class Module(tf.Module):
    def __init__(self, value, size=4):
        super().__init__()
        self.v = tf.Variable(np.full(size, value, np.float32))
        self.w = tf.Variable(np.full((2, 2), value, np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(self, x):
        return x * self.v[0] + tf.reduce_sum(self.w)


def test_saved_model_failures_leave_the_previous_export(monkeypatch, tmp_path):
    export = str(tmp_path / "model")
    tf.saved_model.save(Module(1.0), export)
    (tmp_path / "model" / "NOTES.txt").write_text("mine")  # a user's file beside the model is kept

    def check():
        loaded = tf.saved_model.load(export)
        assert loaded.f(tf.constant([1.0])).numpy().tolist() == [5.0]
        assert (tmp_path / "model" / "NOTES.txt").read_text() == "mine"
    # TensorFlow 2.21: ValueError "Signature keys must be strings" (checked before anything is written)
    with pytest.raises(ValueError, match="must be strings"):
        tf.saved_model.save(Module(2.0), export, signatures={1: Module(2.0).f})
    check()
    _every_failure(monkeypatch, lambda: tf.saved_model.save(Module(1.0), export),
                   lambda: tf.saved_model.save(Module(2.0), export), check, tmp_path)
    loaded = tf.saved_model.load(export)
    assert loaded.f(tf.constant([1.0])).numpy().tolist() == [10.0]
    assert (tmp_path / "model" / "NOTES.txt").read_text() == "mine"


def test_a_save_that_fails_while_tracing_leaves_the_previous_export(tmp_path):
    export = str(tmp_path / "model")
    tf.saved_model.save(Module(1.0), export)

    class Broken(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def f(self, x):
            raise RuntimeError("traced by the save")
    with pytest.raises(RuntimeError, match="traced by the save"):
        tf.saved_model.save(Broken(), export)
    assert tf.saved_model.load(export).f(tf.constant([1.0])).numpy().tolist() == [5.0]
    _no_temporaries(tmp_path)


def test_checkpoint_failures_leave_the_previous_checkpoint(monkeypatch, tmp_path):
    m = Module(1.0)
    ckpt = tf.train.Checkpoint(model=m)
    prefix = ckpt.write(str(tmp_path / "c"))

    def check():
        fresh = Module(0.0)
        tf.train.Checkpoint(model=fresh).read(prefix)
        assert fresh.v.numpy().tolist() == [1.0] * 4

    def reset():
        m.v.assign(np.full(4, 1.0, np.float32))
        ckpt.write(str(tmp_path / "c"))
        m.v.assign(np.full(4, 3.0, np.float32))
    _every_failure(monkeypatch, reset, lambda: ckpt.write(str(tmp_path / "c")), check, tmp_path)
    fresh = Module(0.0)
    tf.train.Checkpoint(model=fresh).read(prefix)
    assert fresh.v.numpy().tolist() == [3.0] * 4
    # the superseded write is replaced: one index, one data file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.data-00000-of-00001", "c.index"]


def test_checkpoint_manager_failures_keep_its_state_and_checkpoints(monkeypatch, tmp_path):
    m = Module(1.0)

    def reset():
        for name in os.listdir(tmp_path):
            path = tmp_path / name
            shutil.rmtree(path) if path.is_dir() else path.unlink()
        m.v.assign(np.full(4, 1.0, np.float32))
        manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=m), str(tmp_path), max_to_keep=2)
        manager.save(checkpoint_number=1)
        m.v.assign(np.full(4, 2.0, np.float32))
        manager.save(checkpoint_number=2)
        m.v.assign(np.full(4, 3.0, np.float32))

    def check():
        assert tf.train.latest_checkpoint(str(tmp_path)).endswith("ckpt-2")
        fresh = Module(0.0)
        tf.train.Checkpoint(model=fresh).read(tf.train.latest_checkpoint(str(tmp_path)))
        assert fresh.v.numpy().tolist() == [2.0] * 4
        assert os.path.exists(tmp_path / "ckpt-1.index")

    count = _every_failure(monkeypatch, reset, lambda: tf.train.CheckpointManager(
        tf.train.Checkpoint(model=m), str(tmp_path), max_to_keep=2).save(checkpoint_number=3), check, tmp_path)
    assert count > 2
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("ckpt-3")
    assert not os.path.exists(tmp_path / "ckpt-1.index")  # beyond max_to_keep, removed after the state was written


def test_checkpoint_manager_removes_only_its_own_checkpoints(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.json").write_text("{}")
    (outside / "precious.tensors").mkdir()
    (outside / "precious.tensors" / "0.npy").write_bytes(b"keep")
    directory = tmp_path / "ckpts"
    directory.mkdir()
    # a crafted state file listing paths outside the manager's directory
    (directory / "checkpoint").write_text(
        '{"format": "eagerflow.checkpoint_state", "model_checkpoint_path": null, "all_model_checkpoint_paths": ["'
        + str(outside / "precious") + '", "' + str(directory / ".." / "outside" / "precious") + '"]}')
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=Module(1.0)), str(directory), max_to_keep=1)
    manager.save()
    manager.save()
    assert (outside / "precious.json").exists() and (outside / "precious.tensors" / "0.npy").read_bytes() == b"keep"
    assert manager.checkpoints == [str(directory / "ckpt-2")]
    assert not (directory / "ckpt-1.json").exists()


def _small_model(value):
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    model.set_weights([np.full((3, 2), value, np.float32), np.full(2, value, np.float32)])
    return model


def test_keras_files_failures_leave_the_previous_file(monkeypatch, tmp_path):
    keras_path, weights_path = str(tmp_path / "m.keras"), str(tmp_path / "w.weights.h5")
    _small_model(1.0).save(keras_path)
    _small_model(1.0).save_weights(weights_path)

    def check():
        assert tf.keras.models.load_model(keras_path).get_weights()[1].tolist() == [1.0, 1.0]
        fresh = _small_model(0.0)
        fresh.load_weights(weights_path)
        assert fresh.get_weights()[1].tolist() == [1.0, 1.0]
    def reset():
        _small_model(1.0).save(keras_path)
        _small_model(1.0).save_weights(weights_path)
    new = _small_model(2.0)
    _every_failure(monkeypatch, reset, lambda: new.save(keras_path), check, tmp_path)
    assert tf.keras.models.load_model(keras_path).get_weights()[1].tolist() == [2.0, 2.0]
    _every_failure(monkeypatch, reset, lambda: new.save_weights(weights_path), check, tmp_path)
    fresh = _small_model(0.0)
    fresh.load_weights(weights_path)
    assert fresh.get_weights()[1].tolist() == [2.0, 2.0]


def test_tfrecord_and_write_file_failures_leave_the_previous_file(monkeypatch, tmp_path):
    records, text = str(tmp_path / "data.tfrecord"), str(tmp_path / "out.txt")
    def reset():
        with tf.io.TFRecordWriter(records) as w:
            w.write(b"old")
        tf.io.write_file(text, "old")

    def check():
        assert [r.numpy() for r in tf.data.TFRecordDataset(records)] == [b"old"]
        assert tf.io.read_file(text).numpy() == b"old"

    def write_records():
        with tf.io.TFRecordWriter(records) as w:
            for i in range(3):
                w.write(b"new %d" % i)
                w.flush()
    _every_failure(monkeypatch, reset, write_records, check, tmp_path)
    assert [r.numpy() for r in tf.data.TFRecordDataset(records)] == [b"new 0", b"new 1", b"new 2"]
    _every_failure(monkeypatch, reset, lambda: tf.io.write_file(text, "new"), check, tmp_path)
    assert tf.io.read_file(text).numpy() == b"new"


@pytest.fixture
def tiny_filesystem(tmp_path):
    """A 512 KiB tmpfs (root and a machine that allows mounting), else the test skips."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_full_filesystem_leaves_every_previous_save(tiny_filesystem):
    root = tiny_filesystem
    small, large = Module(1.0, size=4), Module(2.0, size=200_000)  # 800 KB of float32: does not fit
    export, prefix = str(root / "model"), str(root / "c")
    tf.saved_model.save(small, export)
    tf.train.Checkpoint(model=small).write(prefix)
    _small_model(1.0).save(str(root / "m.keras"))
    with pytest.raises(OSError):  # "No space left on device", or NumPy's "800000 requested and 118752 written"
        tf.saved_model.save(large, export)
    with pytest.raises(OSError):
        tf.train.Checkpoint(model=large).write(prefix)
    with pytest.raises(OSError):
        tf.keras.Sequential(
            [tf.keras.Input((400,)), tf.keras.layers.Dense(400)]).save(str(root / "m.keras"))
    assert tf.saved_model.load(export).f(tf.constant([1.0])).numpy().tolist() == [5.0]
    fresh = Module(0.0)
    tf.train.Checkpoint(model=fresh).read(prefix)
    assert fresh.v.numpy().tolist() == [1.0] * 4
    assert tf.keras.models.load_model(str(root / "m.keras")).get_weights()[1].tolist() == [1.0, 1.0]
    _no_temporaries(root)
