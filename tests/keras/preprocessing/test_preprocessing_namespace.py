"""keras.preprocessing as Keras 3.15.1 keeps it: its names, pad_sequences and timeseries_dataset_from_array
(the keras.utils functions), image.smart_resize and text_dataset_from_directory; expected values recorded
from Keras on TensorFlow 2.21."""
import numpy as np
import pytest

from eagerflow import keras

P = keras.preprocessing


def test_names_and_aliases():
    assert {"image", "sequence", "text_dataset_from_directory", "timeseries_dataset_from_array"} <= set(dir(P))
    assert P.sequence.pad_sequences is keras.utils.pad_sequences
    assert P.timeseries_dataset_from_array is keras.utils.timeseries_dataset_from_array
    assert keras.utils.text_dataset_from_directory is P.text_dataset_from_directory
    assert P.sequence.pad_sequences([[1, 2, 3], [4]], maxlen=2).tolist() == [[2, 3], [0, 4]]


def test_timeseries_batches_are_keras():
    data = np.arange(10)
    batches = [(x.numpy().tolist(), y.numpy().tolist()) for x, y in P.timeseries_dataset_from_array(
        data[:-3], data[3:], sequence_length=3, batch_size=2)]
    assert batches == [([[0, 1, 2], [1, 2, 3]], [3, 4]), ([[2, 3, 4], [3, 4, 5]], [5, 6]), ([[4, 5, 6]], [7])]


def test_smart_resize_is_keras():
    x = np.arange(4 * 6 * 3, dtype="float32").reshape(4, 6, 3)
    out = P.image.smart_resize(x, (2, 2))
    assert out.dtype.name == "float32" and tuple(out.shape) == (2, 2, 3)
    assert out.numpy().tolist() == [[[13.5, 14.5, 15.5], [19.5, 20.5, 21.5]], [[49.5, 50.5, 51.5], [55.5, 56.5, 57.5]]]
    batch = P.image.smart_resize(x[None], (3, 3), interpolation="nearest")
    assert tuple(batch.shape) == (1, 3, 3, 3)
    assert batch.numpy().ravel()[:12].tolist() == [3, 4, 5, 9, 10, 11, 12, 13, 14, 39, 40, 41]


@pytest.fixture()
def reviews(tmp_path):
    for folder, name, text in [("neg", "a", "bad movie"), ("neg", "b", "awful"), ("pos", "c", "great film"),
                               ("pos", "d", "loved it"), ("pos", "e", "fine")]:
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / f"{name}.txt").write_text(text)
    (tmp_path / "pos" / "notes.md").write_text("not a sample")
    return str(tmp_path)


def batches(ds):
    return [(x.numpy().tolist(), y.numpy().tolist()) for x, y in ds]


def test_text_dataset_from_directory_is_keras(reviews, capsys):
    ds = P.text_dataset_from_directory(reviews, shuffle=False, batch_size=2)
    assert capsys.readouterr().out == "Found 5 files belonging to 2 classes.\n"
    assert ds.class_names == ["neg", "pos"]
    assert [(s.dtype.name, tuple(s.shape.as_list())) for s in ds.element_spec] == [("string", (None,)),
                                                                                    ("int32", (None,))]
    assert batches(ds) == [([b"bad movie", b"awful"], [0, 0]), ([b"great film", b"loved it"], [1, 1]),
                           ([b"fine"], [1])]
    one_hot = P.text_dataset_from_directory(reviews, shuffle=False, batch_size=None, label_mode="categorical")
    assert [(x.numpy(), y.numpy().tolist()) for x, y in one_hot][:2] == [(b"bad movie", [1.0, 0.0]),
                                                                           (b"awful", [1.0, 0.0])]
    train, val = P.text_dataset_from_directory(reviews, shuffle=False, label_mode="binary", validation_split=0.4,
                                               subset="both", seed=1)
    assert batches(train) == [([b"bad movie", b"awful", b"great film"], [[0.0], [0.0], [1.0]])]
    assert batches(val) == [([b"loved it", b"fine"], [[1.0], [1.0]])]
    assert [x.numpy().tolist() for x, _ in P.text_dataset_from_directory(reviews, max_length=3, shuffle=False)] \
        == [[b"bad", b"awf", b"gre", b"lov", b"fin"]]
    assert [y.numpy().tolist() for _, y in P.text_dataset_from_directory(reviews, class_names=["pos", "neg"],
                                                                         shuffle=False)] == [[0, 0, 0, 1, 1]]
    given = P.text_dataset_from_directory(reviews, labels=[1, 0, 2, 0, 1], shuffle=False)
    assert given.class_names == ["0", "1", "2"] and batches(given)[0][1] == [1, 0, 2, 0, 1]
    texts = P.text_dataset_from_directory(reviews, labels=None, shuffle=False)
    assert texts.class_names is None
    assert [x.numpy().tolist() for x in texts] == [[b"bad movie", b"awful", b"great film", b"loved it", b"fine"]]


def test_text_dataset_shuffled_and_errors(reviews):
    shuffled = [(x.numpy(), int(y.numpy())) for x, y in P.text_dataset_from_directory(
        reviews, batch_size=None, shuffle=True, seed=3, verbose=False)]
    assert sorted(shuffled) == [(b"awful", 0), (b"bad movie", 0), (b"fine", 1), (b"great film", 1), (b"loved it", 1)]
    with pytest.raises(ValueError, match=r"If `subset` is set, `validation_split` must be set, and inversely."):
        P.text_dataset_from_directory(reviews, validation_split=0.4)
    with pytest.raises(FileNotFoundError, match="No such file or directory"):
        P.text_dataset_from_directory(reviews + "/missing")
