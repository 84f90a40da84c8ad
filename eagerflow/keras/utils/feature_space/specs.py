"""What a FeatureSpace is told about each feature and each cross: `Feature` (input dtype, preprocessing
layer, how its output is encoded) and `Cross` (which features, how many hash bins, how encoded)."""
from __future__ import annotations

FEATURE_OUTPUT_MODES = ("int", "one_hot", "float")
CROSS_OUTPUT_MODES = ("int", "one_hot")


def _mode_error(allowed, output_mode):
    names = ", ".join(f"'{m}'" for m in allowed)
    return ValueError(f"Invalid value for argument `output_mode`. Expected one of {{{names}}}. "
                      f"Received: output_mode={output_mode}")


class Cross:
    """Features hashed together into `crossing_dim` bins; named "a_X_b"."""

    def __init__(self, feature_names, crossing_dim, output_mode="one_hot"):
        if output_mode not in CROSS_OUTPUT_MODES:
            raise _mode_error(CROSS_OUTPUT_MODES, output_mode)
        self.feature_names = tuple(feature_names)
        self.crossing_dim = crossing_dim
        self.output_mode = output_mode

    @property
    def name(self):
        return "_X_".join(self.feature_names)

    def get_config(self):
        return {"feature_names": self.feature_names, "crossing_dim": self.crossing_dim,
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Feature:
    """One input column: its dtype, the layer that preprocesses it, and its encoding ("int": the
    preprocessor's ids as they are, "one_hot": those ids multi-hot encoded, "float": as they are)."""

    def __init__(self, dtype, preprocessor, output_mode):
        if output_mode not in FEATURE_OUTPUT_MODES:
            raise _mode_error(FEATURE_OUTPUT_MODES, output_mode)
        if isinstance(preprocessor, dict):
            from ...saving.serialization import deserialize_keras_object, keras_classes
            preprocessor = deserialize_keras_object(preprocessor, keras_classes(), None, "layer")
        self.dtype = dtype
        self.preprocessor = preprocessor
        self.output_mode = output_mode

    def get_config(self):
        from ...saving.serialization import serialize_layer
        return {"dtype": self.dtype, "preprocessor": serialize_layer(self.preprocessor),
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)
