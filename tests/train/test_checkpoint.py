"""tf.train.Checkpoint and CheckpointManager: TensorFlow 2.21's behaviour (paths, counters,
messages), run there and written here."""
import json
import os
import re

import numpy as np
import pytest

import eagerflow as tf


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0)
        self.sub = tf.Module()
        self.sub.w = tf.Variable([1.0, 2.0])
        self.lst = [tf.Variable(1), tf.Variable(2)]


def _state(net):
    return float(net.v.numpy()), net.sub.w.numpy().tolist(), int(net.lst[1].numpy())


def test_save_numbers_prefixes_and_restore_brings_values_back_by_object_path(tmp_path):
    net = Net()
    step = tf.Variable(0, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(model=net, step=step)
    prefix = str(tmp_path / "ck" / "ckpt")
    assert ckpt.save(prefix) == prefix + "-1"
    assert ckpt.save(prefix) == prefix + "-2"
    assert tf.train.latest_checkpoint(str(tmp_path / "ck")) == prefix + "-2"
    assert int(ckpt.save_counter.numpy()) == 2 and ckpt.save_counter.dtype is tf.int64
    net.v.assign(5.0)
    net.sub.w.assign([9.0, 9.0])
    net.lst[1].assign(7)
    status = ckpt.restore(prefix + "-1")
    assert _state(net) == (2.0, [1.0, 2.0], 2)
    assert status.assert_consumed() is status
    # a fresh object tree restores by path, not by identity
    other = Net()
    other.v.assign(-1.0)
    other.sub.w.assign([0.0, 0.0])
    partial = tf.train.Checkpoint(model=other).restore(prefix + "-2")
    assert _state(other) == (2.0, [1.0, 2.0], 2)
    with pytest.raises(AssertionError, match=r"Unresolved object in checkpoint \(root\).step"):
        partial.assert_consumed()
    assert partial.expect_partial() is partial
    partial.assert_existing_objects_matched()


def test_write_and_read_use_the_prefix_as_given(tmp_path):
    net = Net()
    ckpt = tf.train.Checkpoint(model=net)
    path = str(tmp_path / "w" / "wr")
    assert ckpt.write(path) == path
    net.v.assign(3.0)
    ckpt.read(path).assert_consumed()
    assert float(net.v.numpy()) == 2.0


def test_missing_checkpoint_and_incompatible_shape_raise_tensorflows_errors(tmp_path):
    ckpt = tf.train.Checkpoint(model=Net())
    missing = str(tmp_path / "nothere" / "ckpt-9")
    with pytest.raises(tf.errors.NotFoundError, match=(
            f"Error when restoring from checkpoint or SavedModel at {missing}: Unsuccessful TensorSliceReader "
            f"constructor: Failed to find any matching files for {missing}")):
        ckpt.restore(missing)
    with pytest.raises(tf.errors.NotFoundError, match=f"^Unsuccessful TensorSliceReader constructor: Failed to find "
                                                      f"any matching files for {missing}$"):
        ckpt.read(missing)
    assert type(ckpt.restore(None)).__name__ == "InitializationOnlyStatus"
    saved = ckpt.save(str(tmp_path / "ck" / "ckpt"))
    wrong = Net()
    wrong.v = tf.Variable([1.0, 2.0, 3.0])
    before = wrong.sub.w.numpy().tolist()
    wrong.sub.w.assign([5.0, 5.0])
    with pytest.raises(ValueError, match=r"Received incompatible tensor with shape \(\) when attempting to restore "
                                         r"variable with shape \(3,\) and name Variable:0\."):
        tf.train.Checkpoint(model=wrong).restore(saved)
    assert wrong.sub.w.numpy().tolist() == [5.0, 5.0] != before  # nothing restored on failure
    with pytest.raises(ValueError, match=r"`Checkpoint` was expecting x to be a trackable object \(an object "
                                         r"derived from `Trackable`\), got 3\."):
        tf.train.Checkpoint(x=3)


def test_checkpoint_manager_keeps_the_newest_and_numbers_by_the_save_counter(tmp_path):
    net = Net()
    ckpt = tf.train.Checkpoint(model=net)
    ckpt.save(str(tmp_path / "elsewhere" / "ckpt"))
    ckpt.save(str(tmp_path / "elsewhere" / "ckpt"))
    directory = str(tmp_path / "mgr")
    manager = tf.train.CheckpointManager(ckpt, directory, max_to_keep=2)
    assert manager.latest_checkpoint is None
    paths = [manager.save() for _ in range(4)]
    assert paths == [os.path.join(directory, f"ckpt-{n}") for n in (3, 4, 5, 6)]  # TF 2.21
    assert manager.latest_checkpoint == paths[-1]
    assert manager.checkpoints == paths[-2:]
    assert sorted(os.listdir(directory)) == ["checkpoint", "ckpt-5.data-00000-of-00001", "ckpt-5.index",
                                             "ckpt-6.data-00000-of-00001", "ckpt-6.index"]
    assert manager.save(checkpoint_number=100) == os.path.join(directory, "ckpt-100")
    assert int(ckpt.save_counter.numpy()) == 7
    again = tf.train.CheckpointManager(ckpt, directory, max_to_keep=2)
    assert again.latest_checkpoint == os.path.join(directory, "ckpt-100")
    assert again.checkpoints == [os.path.join(directory, "ckpt-6"), os.path.join(directory, "ckpt-100")]
    assert again.save() == os.path.join(directory, "ckpt-8")
    net.v.assign(0.0)
    fresh = Net()
    restored = tf.train.Checkpoint(model=fresh)
    restored.restore(tf.train.latest_checkpoint(directory))
    assert int(restored.save_counter.numpy()) == 8 and float(fresh.v.numpy()) == 2.0


def test_a_corrupted_checkpoint_raises_data_loss_naming_the_file(tmp_path):
    ckpt = tf.train.Checkpoint(model=Net())
    path = ckpt.write(str(tmp_path / "c"))
    data_file = tmp_path / "c.data-00000-of-00001"
    data = bytearray(data_file.read_bytes())
    data[-1] ^= 0xFF  # the last tensor's last byte (keys in byte order: model/v is last)
    data_file.write_bytes(bytes(data))
    with pytest.raises(tf.errors.DataLossError, match=r"c.data-00000-of-00001: the checksum of tensor "
                                                      r"'model/v/\.ATTRIBUTES/VARIABLE_VALUE' does not match its bytes"):
        ckpt.read(path)
    data_file.write_bytes(bytes(data[:-3]))
    with pytest.raises(tf.errors.DataLossError, match=r"c.data-00000-of-00001: tensor 'model/v/\.ATTRIBUTES/VARIABLE_VALUE' "
                                                      r"claims bytes \d+\.\.\d+ of a \d+-byte file"):
        ckpt.read(path)
    (tmp_path / "c.index").write_bytes(b"\0" * 10)
    with pytest.raises(tf.errors.DataLossError, match=r"c.index"):
        ckpt.read(path)


def _write_earlier_format(prefix, values):
    """A checkpoint as eagerflow wrote them before it wrote TensorFlow's format: a JSON document naming .npy
    files (saved_model/files.py's writers, the ones that format used)."""
    from eagerflow.saved_model.files import write_json, write_tensor
    directory, base = os.path.split(prefix)
    folder = f"{base}.tensors-0123abcd"
    os.makedirs(os.path.join(directory, folder))
    entries = []
    for i, (key, value) in enumerate(values.items()):
        ref = write_tensor(os.path.join(directory, folder), f"{i}.npy", np.asarray(value))
        ref["file"] = f"{folder}/{ref['file']}"
        entries.append([key, ref])
    write_json(f"{prefix}.json", {"format": "eagerflow.checkpoint", "format_version": [1, 0], "variables": entries})
    with open(os.path.join(directory, "checkpoint"), "w") as fh:
        json.dump({"format": "eagerflow.checkpoint_state", "model_checkpoint_path": prefix,
                   "all_model_checkpoint_paths": [prefix]}, fh)


def test_checkpoints_in_the_earlier_json_format_still_restore(tmp_path):
    prefix = str(tmp_path / "old" / "ckpt-1")
    os.makedirs(tmp_path / "old")
    _write_earlier_format(prefix, {"model/v": np.float32(7.0), "model/sub/w": np.array([3.0, 4.0], np.float32),
                                   "model/lst/0": np.int32(5), "model/lst/1": np.int32(6),
                                   "save_counter": np.int64(1)})
    assert tf.train.latest_checkpoint(str(tmp_path / "old")) == prefix
    net = Net()
    ckpt = tf.train.Checkpoint(model=net)
    ckpt.restore(prefix).assert_consumed()
    assert _state(net) == (7.0, [3.0, 4.0], 6) and int(ckpt.save_counter.numpy()) == 1
    assert tf.train.list_variables(prefix) == [("model/lst/0", []), ("model/lst/1", []), ("model/sub/w", [2]),
                                               ("model/v", []), ("save_counter", [])]
    assert tf.train.load_variable(str(tmp_path / "old"), "model/v") == 7.0
    # a manager continues the directory in TensorFlow's format and sweeps the old files by max_to_keep
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path / "old"), max_to_keep=1)
    assert manager.checkpoints == [prefix]
    assert manager.save() == str(tmp_path / "old" / "ckpt-2")
    assert sorted(os.listdir(tmp_path / "old")) == ["checkpoint", "ckpt-2.data-00000-of-00001", "ckpt-2.index"]
    assert (tmp_path / "old" / "checkpoint").read_text().startswith(
        'model_checkpoint_path: "ckpt-2"\nall_model_checkpoint_paths: "ckpt-2"\n')


def test_a_corrupted_earlier_format_checkpoint_raises_data_loss(tmp_path):
    prefix = str(tmp_path / "c")
    _write_earlier_format(prefix, {"model/v": np.float32(7.0)})
    ckpt = tf.train.Checkpoint(model=Net())
    folder = json.loads((tmp_path / "c.json").read_text())["variables"][0][1]["file"].split("/")[0]
    assert re.fullmatch(r"c\.tensors-[0-9a-f]{8}", folder)
    tensor_file = tmp_path / folder / "0.npy"
    data = bytearray(tensor_file.read_bytes())
    tensor_file.write_bytes(bytes(data[:-2]))
    with pytest.raises(tf.errors.DataLossError, match=r"c.tensors-[0-9a-f]{8}/0.npy: checksum mismatch"):
        ckpt.read(prefix)
    document = json.loads((tmp_path / "c.json").read_text())
    ref = document["variables"][0][1]
    ref["file"] = "../../etc/passwd"
    (tmp_path / "c.json").write_text(json.dumps(document))
    with pytest.raises(tf.errors.DataLossError, match="is not a plain relative path"):
        ckpt.read(prefix)
    (tmp_path / "c.json").write_text('{"format": "eagerflow.checkpoint", "format_version": [1, 0], "variables": [[')
    with pytest.raises(tf.errors.DataLossError, match=r"c.json: not a valid JSON document"):
        ckpt.read(prefix)


def test_a_saved_model_restored_object_can_be_checkpointed(tmp_path):
    net = Net()
    tf.saved_model.save(net, str(tmp_path / "sm"))
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    loaded.v.assign(11.0)
    path = tf.train.Checkpoint(model=loaded).write(str(tmp_path / "ck"))
    tf.train.Checkpoint(model=net).read(path)
    assert float(net.v.numpy()) == 11.0
    assert np.asarray(net.sub.w.numpy()).tolist() == [1.0, 2.0]


def test_functions_and_signatures_add_no_paths_and_a_loaded_model_saves_again(tmp_path):
    class WithFunction(Net):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def scaled(self, x):
            return x * self.v

    net = WithFunction()
    tf.saved_model.save(net, str(tmp_path / "sm"), signatures=net.scaled)
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    path = tf.train.Checkpoint(model=loaded).write(str(tmp_path / "ck"))
    assert [key for key, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "model/lst/0/.ATTRIBUTES/VARIABLE_VALUE",
        "model/lst/1/.ATTRIBUTES/VARIABLE_VALUE", "model/sub/w/.ATTRIBUTES/VARIABLE_VALUE",
        "model/v/.ATTRIBUTES/VARIABLE_VALUE"]
    assert path == str(tmp_path / "ck")
    tf.saved_model.save(loaded, str(tmp_path / "again"), signatures=loaded.signatures)
    again = tf.saved_model.load(str(tmp_path / "again"))
    assert float(again.scaled(tf.constant(3.0))) == 6.0
    assert float(again.signatures["serving_default"](x=tf.constant(2.0))["output_0"]) == 4.0
