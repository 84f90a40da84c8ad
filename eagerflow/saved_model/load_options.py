"""`tf.saved_model.LoadOptions`: TensorFlow's options for `tf.saved_model.load`, plus eagerflow's own
opt-in for models whose functions touch files.

Why eagerflow has an option TensorFlow lacks: TensorFlow loads a SavedModel whose function calls
`tf.io.write_file` and lets one call write wherever the file says. eagerflow refuses, at load time,
every op that reads or writes files (ReadFile, WriteFile, a PrintV2 to a `file://` stream,
WriteSummary, ...; the ops whose OpDef's `effects` name "files") unless the caller passes
`LoadOptions(eagerflow_allow_file_access=True)`. The keyword carries the `eagerflow_` prefix so it can
never clash with an option TensorFlow adds later. Ops that run Python code are refused whatever the
options: a SavedModel holds no Python, so there is nothing a loader could run.

TensorFlow's own options are accepted and kept; eagerflow has one device and reads every variable
of a SavedModel it loads, so they change nothing here.
"""
from __future__ import annotations

class LoadOptions:
    """Options for `tf.saved_model.load`.

    TensorFlow's: allow_partial_checkpoint, experimental_io_device, experimental_skip_checkpoint,
    experimental_variable_policy, experimental_load_function_aliases (accepted; no effect here).

    eagerflow's own (keyword only): eagerflow_allow_file_access: load a model whose functions read
    or write files (tf.io.read_file, tf.io.write_file, tf.print to a file, summary writers). Off by
    default: such a model is refused with an error naming every such op. Turn it on only for files
    you trust, as each call may then read or write any file the process can.
    """

    __slots__ = ("allow_partial_checkpoint", "experimental_io_device", "experimental_skip_checkpoint",
                 "experimental_variable_policy", "experimental_load_function_aliases",
                 "eagerflow_allow_file_access")

    def __init__(self, allow_partial_checkpoint=False, experimental_io_device=None,
                 experimental_skip_checkpoint=False, experimental_variable_policy=None,
                 experimental_load_function_aliases=False, *, eagerflow_allow_file_access=False):
        self.allow_partial_checkpoint = allow_partial_checkpoint
        self.experimental_io_device = experimental_io_device
        self.experimental_skip_checkpoint = experimental_skip_checkpoint
        self.experimental_variable_policy = experimental_variable_policy
        self.experimental_load_function_aliases = experimental_load_function_aliases
        if not isinstance(eagerflow_allow_file_access, bool):
            raise TypeError(f"eagerflow_allow_file_access must be a bool, got {eagerflow_allow_file_access!r}")
        self.eagerflow_allow_file_access = eagerflow_allow_file_access

    def allowed_effects(self) -> frozenset:
        """The op effects (ops/registry.py EFFECTS) a model loaded with these options may have."""
        return frozenset({"files"}) if self.eagerflow_allow_file_access else frozenset()


def allowed_effects(options) -> frozenset:
    if options is None:
        return frozenset()
    if not isinstance(options, LoadOptions):
        raise TypeError(f"options must be a tf.saved_model.LoadOptions, got {type(options).__name__}")
    return options.allowed_effects()
