"""keras.utils.plot_model / model_to_dot (keras/utils/model_plot.py): one box per layer saying what
Keras' drawing says (name and class, shapes, dtype, activation, trainable), one edge per layer feeding
another, written as DOT, SVG (eagerflow's own layout when Graphviz is missing) or, through Graphviz,
PNG; without Graphviz a PNG request names what to install, as Keras does for its pydot."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.graph import render
from eagerflow.keras.utils import model_plot

keras = tf.keras


def _two_input_model():
    a = keras.Input((4,), name="a")
    b = keras.Input((2,), name="b")
    hidden = keras.layers.Dense(3, activation="relu", name="hidden")(a)
    joined = keras.layers.Concatenate(name="joined")([hidden, b])
    return keras.Model([a, b], keras.layers.Dense(1, name="out")(joined))


def _boxes_and_edges(dot):
    boxes = dict(re.findall(r'(n\d+) \[id="n\d+", label="([^"]*)"', dot))
    edges = re.findall(r"(n\d+) -> (n\d+)", dot)
    return {k: v.split("\\n") for k, v in boxes.items()}, [(boxes[a].split("\\n")[0], boxes[b].split("\\n")[0])
                                                            for a, b in edges]


def test_a_functional_model_draws_every_layer_and_connection():
    dot = keras.utils.model_to_dot(_two_input_model(), show_shapes=True, show_layer_activations=True).to_string()
    boxes, edges = _boxes_and_edges(dot)
    labels = sorted(lines for lines in boxes.values())
    assert labels == sorted([
        ["a (InputLayer)", "Output shape: (None, 4)"],
        ["b (InputLayer)", "Output shape: (None, 2)"],
        ["hidden (Dense)", "Input shape: (None, 4)", "Output shape: (None, 3)", "Activation: relu"],
        ["joined (Concatenate)", "Input shape: [(None, 3), (None, 2)]", "Output shape: (None, 5)"],
        ["out (Dense)", "Input shape: (None, 5)", "Output shape: (None, 1)", "Activation: linear"]])
    assert sorted(edges) == [("a (InputLayer)", "hidden (Dense)"), ("b (InputLayer)", "joined (Concatenate)"),
                             ("hidden (Dense)", "joined (Concatenate)"), ("joined (Concatenate)", "out (Dense)")]
    assert "rankdir=TB" in dot


def test_options_and_a_chain_of_layers(tmp_path):
    model = keras.Sequential([keras.layers.Dense(2, name="first"), keras.layers.Dense(1, name="second")])
    model(np.ones((1, 3), "float32"))
    model.layers[1].trainable = False
    dot = keras.utils.model_to_dot(model, show_layer_names=False, show_dtype=True, show_trainable=True,
                                   rankdir="LR").to_string()
    boxes, edges = _boxes_and_edges(dot)
    assert sorted(boxes.values())[0][0] == "Dense" and "rankdir=LR" in dot
    assert any("Trainable: False" in lines for lines in boxes.values())
    assert any("Output dtype: float32" in lines for lines in boxes.values())
    assert len(edges) == len(boxes) - 1


def test_files_in_each_format(tmp_path):
    model = _two_input_model()
    assert keras.utils.plot_model(model, tmp_path / "m.dot", show_shapes=True) is None
    assert (tmp_path / "m.dot").read_text().startswith('digraph "')
    keras.utils.plot_model(model, str(tmp_path / "m.svg"))
    svg = (tmp_path / "m.svg").read_text()
    assert "<svg" in svg and "joined" in svg
    if render.graphviz_available():
        keras.utils.plot_model(model, str(tmp_path / "m.png"))
        assert (tmp_path / "m.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_graphviz_svg_uses_eagerflows_layout_and_png_says_what_to_install(tmp_path, monkeypatch):
    def missing(text, fmt):
        raise RuntimeError("no dot")
    monkeypatch.setattr(render, "dot_to_image", missing)
    monkeypatch.setattr(render, "graphviz_available", lambda: False)
    model = _two_input_model()
    keras.utils.plot_model(model, str(tmp_path / "m.svg"))
    assert "<svg" in (tmp_path / "m.svg").read_text()
    with pytest.raises(ImportError, match=r"You must install Graphviz for `plot_model` to draw PNG.*apt-get install "
                                          r"graphviz.*eagerflow\[viz\]"):
        keras.utils.plot_model(model, str(tmp_path / "m.png"))
    assert not (tmp_path / "m.png").exists()


def test_bad_arguments():
    with pytest.raises(ValueError, match="has not yet been built"):
        keras.utils.plot_model(keras.Sequential([keras.layers.Dense(1)]), "x.dot")
    with pytest.raises(ValueError, match="rankdir"):
        keras.utils.model_to_dot(_two_input_model(), rankdir="UP")
    with pytest.raises(ValueError, match="Cannot draw a model as 'txt'"):
        keras.utils.plot_model(_two_input_model(), "m.txt")
