"""The `_default_save_signature` function of each Keras model in a saved tree.

TensorFlow 2.21 with Keras 3 records, for every built Keras model it saves (the root or one held
inside the tree), a child `_default_save_signature`: the tf.function calling the model on its input
specs (saved_model/keras_export.py makes it). The root's is also the function `serving_default` is
made from when a save is given no signatures, so both use one trace, as TensorFlow's do; and it is
what `saved_model_cli show --all` lists under "Concrete Functions" for a saved Keras model.

A model's hook makes a new tf.function on each call, so one save asks each model once and keeps
the answer for the rest of the save (the save holds every model of its tree until it ends).
"""
from __future__ import annotations

CHILD_NAME = "_default_save_signature"


class DefaultSaveFunctions:
    """The `_default_save_signature` tf.function of each object one save meets, made once."""

    def __init__(self):
        self._made = {}  # id(obj) -> (obj, Function or None); holding obj keeps its id unique

    def function_of(self, obj):
        """The tf.function of `obj`'s `_default_save_signature()` hook (a built Keras model's call),
        or None: an object without the hook, or an unbuilt model."""
        known = self._made.get(id(obj))
        if known is not None:
            return known[1]
        hook = getattr(type(obj), CHILD_NAME, None)
        function = obj._default_save_signature() if callable(hook) else None
        self._made[id(obj)] = (obj, function)
        return function


def add_child(object_graph, children, obj):
    """Adds `obj`'s `_default_save_signature` function node to `children` (an object node's list of
    {"node_id", "local_name"}, kept in name order), when `obj` has one."""
    defaults = getattr(object_graph, "default_save_functions", None)
    function = defaults.function_of(obj) if defaults is not None else None
    if function is None or any(c["local_name"] == CHILD_NAME for c in children):
        return
    entry = {"node_id": object_graph._function_node(function), "local_name": CHILD_NAME}
    position = next((i for i, c in enumerate(children) if c["local_name"] > CHILD_NAME), len(children))
    children.insert(position, entry)
