"""`tf.autograph`: inspect and control the conversion of Python control flow under tf.function."""
import types as _types

from ..autograph.api import Feature, do_not_convert, set_loop_options, set_verbosity, to_code, to_graph

experimental = _types.SimpleNamespace(do_not_convert=do_not_convert, set_loop_options=set_loop_options,
                                      Feature=Feature)

__all__ = ["to_code", "to_graph", "set_verbosity", "experimental"]
