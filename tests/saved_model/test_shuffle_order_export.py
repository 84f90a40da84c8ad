"""A `for` loop over a shuffled dataset made inside a tf.function (eagerflow's ShuffleOrder: the order the
shuffle buffer hands positions out, drawn afresh on each call from the dataset's seeds) saves in
TensorFlow's format as ordinary ops: Philox words from StatelessRandomUniformFullIntV2 and the ring buffer
in a While loop. The graph gives the kernel's orders (data/shuffle.py, whose eager orders are TensorFlow
2.21's), and a dataset shuffled by a generator kept across calls is refused naming the op."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.data.shuffle import _order_kernel
from eagerflow._src.formats.graph_export.shuffle_order_graph import shuffle_order
from eagerflow._src.formats.protos import saved_model_pb2

CASES = [((1, 7), 3, (3, 11, True)), ((3, 9), 100, (5, 8, True)), ((2, 9), 4, (5, 8, False)),
         ((2, 6), 1, (1, 2, True)), ((1, 12), -2, (123456789012, 42, True)), ((0, 5), 2, (7, 7, True))]


@pytest.mark.parametrize("shape, buffer_size, seeds", CASES)
def test_the_graph_gives_the_kernels_orders(shape, buffer_size, seeds):
    graph = tf.function(lambda s, b: shuffle_order(s, b, *seeds),
                        input_signature=[tf.TensorSpec([2], tf.int32), tf.TensorSpec([], tf.int32)])
    got = graph(np.array(shape, np.int32), np.int32(buffer_size)).numpy()
    expected = _order_kernel(np.array(shape), np.int32(buffer_size), seeds=seeds)
    assert got.shape == expected.shape and got.tolist() == expected.tolist()


class Shuffled(tf.Module):
    @tf.function(input_signature=[])
    def weighted(self):
        s, k = tf.constant(0, tf.int64), tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(7).shuffle(3, seed=3).repeat(2):
            k += 1
            s += x * k
        return s

    @tf.function(input_signature=[])
    def sequence(self):
        out = tf.zeros([0], tf.int64)
        for x in tf.data.Dataset.range(9).shuffle(100, seed=5, reshuffle_each_iteration=False).repeat(2):
            out = tf.concat([out, [x]], 0)
        return out


def test_a_loop_over_a_shuffled_dataset_saves_as_tensorflow_ops_and_loads_back(tmp_path):
    m = Shuffled()
    weighted, sequence = int(m.weighted()), m.sequence().numpy().tolist()
    assert sorted(sequence) == sorted(list(range(9)) * 2) and sequence[:9] == sequence[9:]  # no reshuffle
    tf.saved_model.save(m, str(tmp_path / "m"))
    message = saved_model_pb2.SavedModel.FromString((tmp_path / "m" / "saved_model.pb").read_bytes())
    ops = {n.op for f in message.meta_graphs[0].graph_def.library.function for n in f.node_def}
    assert "ShuffleOrder" not in ops and {"StatelessRandomUniformFullIntV2", "TensorScatterUpdate"} <= ops
    back = tf.saved_model.load(str(tmp_path / "m"))
    assert int(back.weighted()) == weighted and back.sequence().numpy().tolist() == sequence


def test_a_dataset_shuffled_outside_the_function_is_refused(tmp_path):
    dataset = tf.data.Dataset.range(6).shuffle(6, seed=3)

    class Outside(tf.Module):
        @tf.function(input_signature=[])
        def total(self):
            s = tf.constant(0, tf.int64)
            for x in dataset:
                s += x
            return s

    m = Outside()
    assert int(m.total()) == 15
    with pytest.raises(ValueError, match=r"\(ShuffleOrder\) of function 'total' shuffles a dataset made outside the "
                                         r"function: .*seed generator kept across calls"):
        tf.saved_model.save(m, str(tmp_path / "m"))
    assert not (tmp_path / "m").exists()
