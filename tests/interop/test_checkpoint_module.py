"""tf.Module checkpoints between TensorFlow 2.21 and eagerflow: CheckpointManager directories (the `checkpoint`
state file, numbering, max_to_keep), the object graph byte for byte, escaped names, shared variables, restore
deferred to variables made later, and the reader functions."""
import os

import numpy as np
import pytest

import eagerflow as tf

# The same tf.Module on both sides (run as source by each).
NET = """
class Net(tf.Module):
    def __init__(self, scale):
        super().__init__()
        self.v = tf.Variable(2.0 * scale)
        self.sub = tf.Module()
        self.sub.w = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3) * scale)
        self.lst = [tf.Variable(np.int32(3 * scale)), tf.Variable(np.float64(-1.5 * scale))]
        self.d = {"a/b": tf.Variable(4.0 * scale), "c.d": tf.Variable([True, False])}
        self.alias = self.v
        self.words = tf.Variable([b"x", b"yz"])
"""


def _net(scale):
    scope = {"tf": tf, "np": np}
    exec(NET, scope)
    return scope["Net"](scale)


def _state(net):
    return [float(net.v.numpy()), net.sub.w.numpy().tolist(), int(net.lst[0].numpy()), float(net.lst[1].numpy()),
            float(net.d["a/b"].numpy()), net.d["c.d"].numpy().tolist(), [w.decode() for w in net.words.numpy()]]


TF_STATE = """
def state(net):
    return [float(net.v.numpy()), net.sub.w.numpy().tolist(), int(net.lst[0].numpy()), float(net.lst[1].numpy()),
            float(net.d["a/b"].numpy()), net.d["c.d"].numpy().tolist(), [w.decode() for w in net.words.numpy()]]
"""


def test_tensorflow_restores_a_manager_directory_eagerflow_writes(tmp_path, run_tf):
    net = _net(1.0)
    step = tf.Variable(0, dtype=tf.int64)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=net, step=step), str(tmp_path / "ckpts"),
                                         max_to_keep=2)
    for i in range(3):
        step.assign(10 * (i + 1))
        net.v.assign(float(i))
        manager.save()
    answer = run_tf("import json\nimport numpy as np\nimport tensorflow as tf\n" + NET + TF_STATE + """
net = Net(0.0)
step = tf.Variable(0, dtype=tf.int64)
ckpt = tf.train.Checkpoint(model=net, step=step)
manager = tf.train.CheckpointManager(ckpt, "ckpts", max_to_keep=2)
status = ckpt.restore(manager.latest_checkpoint)
status.assert_consumed()
state_proto = tf.train.get_checkpoint_state("ckpts")
print(json.dumps({"state": state(net), "step": int(step.numpy()), "counter": int(ckpt.save_counter.numpy()),
                  "alias": net.alias is net.v, "checkpoints": [p[-6:] for p in manager.checkpoints],
                  "all": [p[-6:] for p in state_proto.all_model_checkpoint_paths],
                  "stamps": len(state_proto.all_model_checkpoint_timestamps),
                  "files": sorted(__import__("os").listdir("ckpts"))}))
""")
    assert answer["state"] == _state(net) and answer["state"][0] == 2.0
    assert answer["step"] == 30 and answer["counter"] == 3 and answer["alias"]
    assert answer["checkpoints"] == answer["all"] == ["ckpt-2", "ckpt-3"] and answer["stamps"] == 2
    assert answer["files"] == ["checkpoint", "ckpt-2.data-00000-of-00001", "ckpt-2.index",
                               "ckpt-3.data-00000-of-00001", "ckpt-3.index"]


def test_eagerflow_restores_a_manager_directory_tensorflow_writes(tmp_path, run_tf):
    answer = run_tf("import json\nimport numpy as np\nimport tensorflow as tf\n" + NET + TF_STATE + """
net = Net(1.0)
ckpt = tf.train.Checkpoint(model=net)
manager = tf.train.CheckpointManager(ckpt, "ckpts", max_to_keep=2)
for i in range(3):
    net.v.assign(float(i) + 0.5)
    manager.save()
graph = open("ckpts/ckpt-3.index", "rb").read()
reader = tf.train.load_checkpoint("ckpts")
print(json.dumps({"state": state(net), "listed": tf.train.list_variables("ckpts"),
                  "dtypes": {k: v.name for k, v in reader.get_variable_to_dtype_map().items()},
                  "object_graph": reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH").hex()}))
""")
    directory = str(tmp_path / "ckpts")
    assert tf.train.latest_checkpoint(directory) == os.path.join(directory, "ckpt-3")
    state = tf.train.get_checkpoint_state(directory)
    assert state.all_model_checkpoint_paths == [os.path.join(directory, f"ckpt-{n}") for n in (2, 3)]
    assert len(state.all_model_checkpoint_timestamps) == 2 and state.last_preserved_timestamp > 1.7e9
    assert [[k, s] for k, s in tf.train.list_variables(directory)] == answer["listed"]
    reader = tf.train.load_checkpoint(directory)
    assert {k: v.name for k, v in reader.get_variable_to_dtype_map().items()} == answer["dtypes"]
    assert reader.has_tensor("model/d/a.Sb/.ATTRIBUTES/VARIABLE_VALUE")
    assert tf.train.load_variable(directory, "model/v/.ATTRIBUTES/VARIABLE_VALUE") == 2.5
    net = _net(0.0)
    ckpt = tf.train.Checkpoint(model=net)
    ckpt.restore(tf.train.latest_checkpoint(directory)).assert_consumed()
    assert _state(net) == answer["state"] and int(ckpt.save_counter.numpy()) == 3
    # eagerflow writes the same object graph for the same objects
    ours = tf.train.Checkpoint(model=net)
    ours.save_counter.assign(3)
    ours.write(str(tmp_path / "ours"))
    assert tf.train.load_checkpoint(str(tmp_path / "ours")).get_tensor(
        "_CHECKPOINTABLE_OBJECT_GRAPH").hex() == answer["object_graph"]
    # a manager opened on TensorFlow's directory continues its numbering and list
    manager = tf.train.CheckpointManager(ckpt, directory, max_to_keep=2)
    assert manager.checkpoints == state.all_model_checkpoint_paths
    assert manager.save() == os.path.join(directory, "ckpt-4")
    assert sorted(os.listdir(directory)) == ["checkpoint", "ckpt-3.data-00000-of-00001", "ckpt-3.index",
                                             "ckpt-4.data-00000-of-00001", "ckpt-4.index"]


def test_variables_made_after_restore_take_their_values(tmp_path, run_tf):
    run_tf("""
import json
import tensorflow as tf
class Lazy(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([1.0, 2.0, 3.0])
        self.inner = tf.Module()
        self.inner.b = tf.Variable(7, dtype=tf.int64)
tf.train.Checkpoint(model=Lazy()).write("theirs")
print(json.dumps(None))
""")

    class Lazy(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = None
            self.inner = None

    lazy = Lazy()
    status = tf.train.Checkpoint(model=lazy).read(str(tmp_path / "theirs"))
    status.assert_existing_objects_matched()
    with pytest.raises(AssertionError, match=r"Unresolved object in checkpoint \(root\)\.model\.w"):
        status.assert_consumed()
    lazy.w = tf.Variable([0.0, 0.0, 0.0])
    assert lazy.w.numpy().tolist() == [1.0, 2.0, 3.0]
    lazy.inner = tf.Module()
    lazy.inner.b = tf.Variable(0, dtype=tf.int64)
    assert int(lazy.inner.b.numpy()) == 7
    status.assert_consumed()
