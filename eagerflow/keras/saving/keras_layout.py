"""Where each variable of a model lives in Keras 3's weights file (model.weights.h5, .weights.h5).

Keras 3 files a model's state as a tree of groups, one per saveable object (layer, optimizer,
metric), each holding `vars/0`, `vars/1`, ... : the object's OWN variables (not its sublayers'),
trainable ones first, each list in creation order, with the object's name as the `name` attribute
of `vars`. An object's children are reached by attribute name: a Sequential or functional model
files its layers under `layers/`, then every other attribute holding a saveable or a list, tuple or
dict of them, public names first, then private ones, each in sorted order (a subclassed model's
`layers` property among them: a sublayer first reached there is filed under `layers/`). Inside a list, an entry
is named by its class in snake case, `dense`, `dense_1`, ... (never by the layer's own name, which
differs between two builds of one model); a nested list is `container`, `container_1`, ... An
object reached twice is filed once, where it was first reached.

Where eagerflow's layers keep their state differently from Keras' classes, `_BUILTIN_CHILDREN`
restates Keras' tree: LSTM/GRU/SimpleRNN own their weights here but file them under `cell`, as
Keras' layers hold a cell object; MultiHeadAttention's projections are filed under Keras' public
property names. Everything else (user layers and models included) is walked as Keras walks it.
"""
from __future__ import annotations

import dataclasses

from ..layers.base import Layer
from ..metrics.metric import Metric
from ..naming import to_snake_case
from ..optimizers.base import Optimizer


@dataclasses.dataclass
class Entry:
    """One `<path>/vars` group: the owner's name and its own variables, in Keras' order, and the owner."""
    path: str
    name: str
    variables: list
    owner: object = None

    @property
    def folder(self):
        """The owner's place in the tree ('' for the model): its assets live under assets/<folder>/."""
        return self.path[:-len("vars")].rstrip("/")


def model_entries(model, with_optimizer=True):
    """Every group of `model`'s weights file, parents before children, as Keras 3 writes them."""
    entries, visited = [], set()
    _visit(model, "", entries, visited)
    optimizer = getattr(model, "optimizer", None)
    if with_optimizer and isinstance(optimizer, Optimizer) and id(optimizer) not in visited:
        _visit(optimizer, "optimizer", entries, visited)
    return entries


def _join(path, name):
    return f"{path}/{name}" if path else name


def _saveable(value):
    return isinstance(value, (Layer, Optimizer, Metric))


def _own_variables(obj):
    if isinstance(obj, Layer):
        own = list(obj._tracked_weights)
        return [w for w in own if w.trainable] + [w for w in own if not w.trainable]
    return list(obj.variables)


def _visit(obj, path, entries, visited):
    if id(obj) in visited:
        return
    visited.add(id(obj))
    rule = _BUILTIN_CHILDREN.get(type(obj).__name__) if _is_builtin(obj) else None
    if rule is not None:
        rule(obj, path, entries, visited)
        return
    entries.append(Entry(_join(path, "vars"), obj.name, _own_variables(obj), obj))
    for attribute, value in _children(obj):
        _visit_value(value, _join(path, attribute), entries, visited)


def _visit_value(value, path, entries, visited):
    if _saveable(value):
        _visit(value, path, entries, visited)
    elif isinstance(value, (list, tuple, dict)):
        _visit_container(value, path, entries, visited)


def _visit_container(container, path, entries, visited):
    used = {}
    for item in (container.values() if isinstance(container, dict) else container):
        if _saveable(item):
            _visit(item, _join(path, _unique(to_snake_case(type(item).__name__), used)), entries, visited)
        elif isinstance(item, (list, tuple, dict)):
            _visit_container(item, _join(path, _unique("container", used)), entries, visited)


def _unique(name, used):
    if name in used:
        used[name] += 1
        return f"{name}_{used[name]}"
    used[name] = 0
    return name


def _is_builtin(obj):
    return type(obj).__module__.startswith("eagerflow.")


def _children(obj):
    """(attribute name, value) pairs Keras would walk, in its order: a model's layers first."""
    from ..models.model import Functional, Model
    from ..models.sequential import Sequential
    if isinstance(obj, (Sequential, Functional)):
        yield "layers", obj.layers
        if _is_builtin(obj):
            return
    if not isinstance(obj, Layer):
        return  # an optimizer's or metric's state is its own variables
    found = {n: v for n, v in vars(obj).items()
             if n not in _INTERNAL_ATTRIBUTES and not n.startswith(_INTERNAL_PREFIX)}
    if isinstance(obj, Model) and not isinstance(obj, (Sequential, Functional)):
        found["layers"] = obj.layers  # Keras' Model.layers property is walked too, in its sorted place
    for name in sorted(found, key=lambda n: "~" + n if n.startswith("_") else n):
        yield name, found[name]


# eagerflow's base classes' bookkeeping that may hold saveables Keras does not file under these names: the
# tracked-layer list (its layers are also attributes), compile()'s metrics and loss trackers (Keras
# saves no compiled metric), a model's graph and input layer, the optimizer (filed last, as `optimizer`)
_INTERNAL_ATTRIBUTES = frozenset({
    "_tracked_layers", "_tracked_weights", "_losses", "optimizer", "loss", "_compiled_loss", "_loss_tracker",
    "_compiled_metrics", "_weighted_metrics", "_output_loss_trackers", "_output_metrics", "_output_losses",
    "_input_layer", "_stack", "_graph", "_symbolic_output", "_step_functions", "history", "_auto_config_values"})
_INTERNAL_PREFIX = "_compile"  # compile()'s arguments as given (an optimizer, metric objects)


def _recurrent_cell(obj, path, entries, visited):
    """eagerflow's LSTM/GRU/SimpleRNN hold their weights; Keras' hold them in `cell` (an LSTMCell...)."""
    entries.append(Entry(_join(path, "vars"), obj.name, [], obj))
    weights = _own_variables(obj)
    cell_name = weights[0].path.split("/")[-2] if weights and weights[0].path.count("/") >= 2 else \
        to_snake_case(type(obj).__name__) + "_cell"
    entries.append(Entry(_join(path, "cell/vars"), cell_name, weights))


_ATTENTION_CHILDREN = (("_query_dense", "query_dense"), ("_key_dense", "key_dense"), ("_value_dense", "value_dense"),
                       ("_output_dense", "output_dense"), ("_softmax", "_softmax"),
                       ("_dropout_layer", "_dropout_layer"))


def _multi_head_attention(obj, path, entries, visited):
    """MultiHeadAttention's projections, under the names Keras' public properties give them."""
    entries.append(Entry(_join(path, "vars"), obj.name, _own_variables(obj), obj))
    for attribute, keras_name in _ATTENTION_CHILDREN:
        child = getattr(obj, attribute, None)
        if child is not None:
            _visit(child, _join(path, keras_name), entries, visited)


_BUILTIN_CHILDREN = {"LSTM": _recurrent_cell, "GRU": _recurrent_cell, "SimpleRNN": _recurrent_cell,
                     "MultiHeadAttention": _multi_head_attention}
