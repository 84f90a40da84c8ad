"""`keras.utils.plot_model` and `model_to_dot`: a drawing of a model's layers and how they connect.

Keras draws through pydot and Graphviz; eagerflow draws through the graph pictures it already makes
for traced functions (eagerflow/_src/graph: one box per layer, one edge per tensor passed), so the
same layer picture comes out as DOT text (`.dot`, needs nothing), SVG (Graphviz's layout when the
`graphviz` package and the `dot` program are installed, else eagerflow's own layout), or PNG/PDF/JPEG
(Graphviz only; the error says what to install, as Keras' does when pydot is missing).

A functional model (and a Sequential one built on an `Input`) is drawn from its graph of calls,
inputs included; a subclassed or unbuilt Sequential model as the chain of its layers.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from ..._src.graph.dot import view_to_dot
from ..._src.graph.view import Cluster, Edge, GraphView, Node

_IMAGE_FORMATS = ("png", "pdf", "jpg", "jpeg", "svg")


@dataclass
class LayerNode(Node):
    """A layer's box: every line of `lines` is shown (an op's box keeps three shape lines at most)."""
    lines: tuple = ()

    @property
    def label_lines(self) -> list:
        return list(self.lines)


def _shape_text(shape):
    if isinstance(shape, list):
        return "[" + ", ".join(_shape_text(s) for s in shape) + "]"
    if shape is None:
        return "?"
    dims = tuple(shape)
    return "(" + ", ".join("None" if d is None else str(d) for d in dims) + (",)" if len(dims) == 1 else ")")


def _tensor_shapes(tensors):
    shapes = [tuple(t.shape) if getattr(t, "shape", None) is not None else None for t in tensors]
    return shapes[0] if len(shapes) == 1 else shapes


def _label(layer, node, show_shapes, show_dtype, show_layer_names, show_layer_activations, show_trainable):
    kind = getattr(layer, "class_name", None) or type(layer).__name__
    lines = [f"{layer.name} ({kind})" if show_layer_names else kind]
    if show_shapes:
        inputs = list(node.input_tensors) if node is not None else []
        outputs = _flat(node.outputs) if node is not None else []
        if inputs:
            lines.append(f"Input shape: {_shape_text(_tensor_shapes(inputs))}")
        if outputs:
            lines.append(f"Output shape: {_shape_text(_tensor_shapes(outputs))}")
        elif getattr(layer, "_last_output_shape", None) is not None:
            lines.append(f"Output shape: {_shape_text(layer._last_output_shape)}")
    if show_dtype:
        outputs = _flat(node.outputs) if node is not None else []
        dtypes = [getattr(getattr(t, "dtype", None), "name", str(getattr(t, "dtype", "?"))) for t in outputs]
        if dtypes:
            lines.append("Output dtype: " + (dtypes[0] if len(dtypes) == 1 else "[" + ", ".join(dtypes) + "]"))
    if show_layer_activations and getattr(layer, "activation", None) is not None:
        activation = layer.activation
        lines.append(f"Activation: {getattr(activation, '__name__', str(activation))}")
    if show_trainable:
        lines.append(f"Trainable: {bool(getattr(layer, 'trainable', True))}")
    return tuple(lines)


def _flat(structure):
    from ..._src.core import nest
    return nest.flatten(structure, expand_composites=True)


def _model_view(model, options):
    """A GraphView of `model`'s layers (see the module docstring)."""
    nodes, edges = {}, []
    graph = getattr(model, "_graph", None) or getattr(getattr(model, "_functional", None), "_graph", None)
    if graph is not None:
        ids = {}
        for layer in graph.operations:
            ids[id(layer)] = f"n{len(ids)}"
        graph_nodes = [node for depth in sorted(graph.nodes_by_depth, reverse=True)
                       for node in graph.nodes_by_depth[depth]]
        first_call = {}
        for node in graph_nodes:
            first_call.setdefault(id(node.layer), node)
        for layer in graph.operations:
            node_id = ids[id(layer)]
            lines = _label(layer, first_call.get(id(layer)), *options)
            nodes[node_id] = LayerNode(node_id, layer.name, "", [], kind="op", lines=lines)
        seen = set()
        for node in graph_nodes:
            for tensor in node.input_tensors:
                parent = tensor._keras_history.layer
                pair = (ids.get(id(parent)), ids.get(id(node.layer)))
                if None not in pair and pair not in seen:
                    seen.add(pair)
                    edges.append(Edge(pair[0], pair[1], ""))
    else:
        previous = None
        for i, layer in enumerate(model.layers):
            node_id = f"n{i}"
            inbound = getattr(layer, "_inbound_nodes", None)
            lines = _label(layer, inbound[0] if inbound else None, *options)
            nodes[node_id] = LayerNode(node_id, layer.name, "", [], kind="op", lines=lines)
            if previous is not None:
                edges.append(Edge(previous, node_id, ""))
            previous = node_id
    return GraphView(model.name, nodes, edges, Cluster("root", "", nodes=list(nodes)))


class ModelDot:
    """What `model_to_dot` returns: the DOT text (`to_string()`, as pydot's Dot has) of the drawing,
    and `create(format)` for Graphviz's rendering of it; `view` is the drawing itself (the GraphView
    eagerflow's own SVG layout reads)."""

    def __init__(self, text, view):
        self._text, self.view = text, view

    def to_string(self):
        return self._text

    __str__ = to_string

    def create(self, prog="dot", format="png"):
        from ..._src.graph.render import dot_to_image
        return dot_to_image(self._text, format)


def model_to_dot(model, show_shapes=False, show_dtype=False, show_layer_names=True, rankdir="TB",
                 expand_nested=False, dpi=200, subgraph=False, show_layer_activations=False, show_trainable=False,
                 **kwargs):
    """The model's layer drawing as DOT (a ModelDot). `rankdir`: "TB" (top to bottom) or "LR"."""
    if not model.built:
        raise ValueError("This model has not yet been built. Build the model first by calling `build()` or by "
                         "calling the model on a batch of data.")
    if rankdir not in ("TB", "LR", "BT", "RL"):
        raise ValueError(f"Invalid value for argument `rankdir`: expected one of 'TB', 'LR', 'BT', 'RL'. "
                         f"Received: rankdir={rankdir!r}")
    view = _model_view(model, (show_shapes, show_dtype, show_layer_names, show_layer_activations, show_trainable))
    text = view_to_dot(view).replace("rankdir=TB,", f"rankdir={rankdir}, dpi={int(dpi)},", 1)
    return ModelDot(text, view)


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False, show_layer_names=False,
               rankdir="TB", expand_nested=False, dpi=200, show_layer_activations=False, show_trainable=False,
               **kwargs):
    """Draws `model`'s layers into `to_file`, its format from the extension: .dot/.gv (DOT text), .svg,
    .png, .pdf, .jpg (see the module docstring for what each needs). In IPython, returns the image."""
    dot = model_to_dot(model, show_shapes=show_shapes, show_dtype=show_dtype, show_layer_names=show_layer_names,
                       rankdir=rankdir, expand_nested=expand_nested, dpi=dpi,
                       show_layer_activations=show_layer_activations, show_trainable=show_trainable)
    to_file = os.fspath(to_file)
    extension = os.path.splitext(to_file)[1].lstrip(".").lower() or "png"
    if extension in ("dot", "gv"):
        data = dot.to_string().encode()
    elif extension in _IMAGE_FORMATS:
        data = _image(dot, extension)
    else:
        raise ValueError(f"Cannot draw a model as {extension!r} (from {to_file!r}): use .png, .svg, .pdf, .jpg or .dot")
    from ..._src.io.atomic import write_file_atomically
    write_file_atomically(to_file, data)
    if extension not in ("pdf", "dot", "gv"):
        try:
            from IPython import display
        except ImportError:
            return None
        return display.Image(filename=to_file) if extension != "svg" else display.SVG(filename=to_file)
    return None


def _image(dot, extension):
    from ..._src.graph.render import dot_to_image, graphviz_available
    fmt = "jpeg" if extension == "jpg" else extension
    if extension == "svg" and not graphviz_available():
        from ..._src.graph.layout import view_to_svg
        return view_to_svg(dot.view).encode()
    try:
        return dot_to_image(dot.to_string(), fmt)
    except (ImportError, RuntimeError):
        raise ImportError(f"You must install Graphviz for `plot_model` to draw {extension.upper()}: its `dot` "
                          f"program (apt-get install graphviz, brew install graphviz, or "
                          f"https://graphviz.org/download/) and the `graphviz` package (pip install "
                          f"'eagerflow[viz]'). Drawing to .svg or .dot needs neither.") from None
