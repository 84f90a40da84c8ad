"""`tf.saved_model.SaveOptions`: TensorFlow's options for `tf.saved_model.save`, checked as TensorFlow
checks them. eagerflow has one device and writes one shard, so the device and sharding options are
kept for code that sets them and change nothing in what is written."""
from __future__ import annotations

_VARIABLE_POLICIES = (None, "save_variable_devices", "expand_distributed_variables")


class SaveOptions:
    __slots__ = ("namespace_whitelist", "save_debug_info", "function_aliases", "experimental_debug_stripper",
                 "experimental_io_device", "experimental_variable_policy", "experimental_custom_gradients",
                 "experimental_image_format", "experimental_skip_saver", "experimental_sharding_callback",
                 "extra_tags")

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_debug_stripper=False, experimental_io_device=None, experimental_variable_policy=None,
                 experimental_custom_gradients=True, experimental_image_format=False,
                 experimental_skip_saver=False, experimental_sharding_callback=None, extra_tags=None):
        if namespace_whitelist is not None and (
                not isinstance(namespace_whitelist, (list, tuple))
                or not all(isinstance(n, str) for n in namespace_whitelist)):
            raise TypeError(f"`namespace_whitelist` must be a list of strings. Got: {namespace_whitelist} with type "
                            f"{type(namespace_whitelist)}.")
        policy = experimental_variable_policy
        if hasattr(policy, "value"):
            policy = policy.value
        if policy not in _VARIABLE_POLICIES:
            raise ValueError(f"Received invalid VariablePolicy value: {experimental_variable_policy}.")
        self.namespace_whitelist = list(namespace_whitelist or [])
        self.save_debug_info = save_debug_info
        self.function_aliases = dict(function_aliases or {})
        self.experimental_debug_stripper = experimental_debug_stripper
        self.experimental_io_device = experimental_io_device
        self.experimental_variable_policy = policy
        self.experimental_custom_gradients = experimental_custom_gradients
        self.experimental_image_format = experimental_image_format
        self.experimental_skip_saver = experimental_skip_saver
        self.experimental_sharding_callback = experimental_sharding_callback
        self.extra_tags = extra_tags


def check_save_options(options):
    if options is not None and not isinstance(options, SaveOptions):
        raise AttributeError(f"'{type(options).__name__}' object has no attribute 'namespace_whitelist'")
    return options
