"""The public names of Keras 3.15.1 that eagerflow's keras leaves out, each with the reason, read by
test_keras_name_coverage.py (which checks every name of keras_names_3_15.json is either in eagerflow or
here, and that nothing here already exists).

It lives beside the test, not in the package: it records the state of the port for the coverage test, and
is no behaviour of eagerflow's. Reasons are of these kinds: "GPU-only", "JAX/Flax-only" or "PyTorch-only"
(names that do not apply to a NumPy framework on the CPU), "Keras' private ..." (keras.src), and
"not yet: ..." (names that could exist and do not yet: issue 24's point and the helper adding it, or
"outside issue 24"). Delete a name's line when it is added: the test fails on a listed name that exists.
"""

LEFT_OUT = {
    "keras": {
        "DTypePolicy": "not yet: outside issue 24 (the policy class is keras.mixed_precision.DTypePolicy here)",
        "FloatDTypePolicy": "not yet: outside issue 24 (the policy class is keras.mixed_precision.DTypePolicy here)",
        "Function": "not yet: outside issue 24 (Keras 3's symbolic-graph internals)",
        "Initializer": "not yet: issue 24 point 2 (helper K2)",
        "KerasTensor": "not yet: issue 24 point 1 (helper K1)",
        "Operation": "not yet: outside issue 24 (Keras 3's symbolic-graph internals)",
        "Quantizer": "not yet: outside issue 24 (int8/float8 quantization)",
        "RematScope": "GPU-only: rematerialisation trades recomputation for accelerator memory",
        "StatelessScope": "JAX/Flax-only: the stateless-call scope JAX's pure-function training needs",
        "SymbolicScope": "not yet: outside issue 24 (Keras 3's symbolic-graph internals)",
        "config": "not yet: outside issue 24",
        "device": "GPU-only: a device placement scope (eagerflow runs on the CPU)",
        "distillation": "not yet: outside issue 24",
        "distribution": "JAX/Flax-only: Keras 3's distribution API runs on the JAX backend only",
        "dtype_policies": "not yet: outside issue 24",
        "export": "not yet: outside issue 24 (SavedModel export archives)",
        "legacy": "not yet: outside issue 24 (Keras 2 saving helpers)",
        "quantizers": "not yet: outside issue 24 (int8/float8 quantization)",
        "remat": "GPU-only: rematerialisation trades recomputation for accelerator memory",
        "src": "Keras' private implementation package, not an API",
        "tree": "not yet: outside issue 24",
        "version": "not yet: outside issue 24 (eagerflow has no Keras version of its own)",
        "visualization": "not yet: outside issue 24",
        "wrappers": "not yet: outside issue 24 (scikit-learn wrappers)",
    },
    "layers": {
        "FlaxLayer": "JAX/Flax-only: wraps a Flax module",
        "JaxLayer": "JAX/Flax-only: wraps a JAX function",
        "TFSMLayer": "not yet: outside issue 24 (loads a TensorFlow SavedModel)",
        "TorchModuleWrapper": "PyTorch-only: wraps a torch.nn.Module",
    },
    "losses": {
        "CategoricalGeneralizedCrossEntropy": "not yet: outside issue 24",
        "categorical_generalized_cross_entropy": "not yet: outside issue 24",
    },
    "metrics": {
        "kl_divergence": "not yet: outside issue 24",
        "log_cosh": "not yet: outside issue 24",
        "mean_absolute_percentage_error": "not yet: outside issue 24",
        "mean_squared_logarithmic_error": "not yet: outside issue 24",
    },
    "optimizers": {
        "MultiOptimizer": "not yet: outside issue 24",
        "OptimizerMap": "not yet: outside issue 24",
        "ScheduleFreeAdamW": "not yet: outside issue 24",
        "legacy": "not yet: outside issue 24",
    },
    "callbacks": {
        "OrbaxCheckpoint": "JAX/Flax-only: checkpoints through Orbax, JAX's checkpoint library",
        "RemoteMonitor": "not yet: outside issue 24",
        "SwapEMAWeights": "not yet: outside issue 24",
    },
    "initializers": {
    },
    "activations": {
    },
    "utils": {
        "Config": "not yet: outside issue 24",
        "bounding_boxes": "not yet: outside issue 24",
        "disable_interactive_logging": "not yet: outside issue 24",
        "enable_interactive_logging": "not yet: outside issue 24",
        "is_interactive_logging_enabled": "not yet: outside issue 24",
        "legacy": "not yet: outside issue 24",
        "standardize_dtype": "not yet: outside issue 24",
    },
    "applications": {
    },
    "random": {
    },
}
