"""keras.utils.FeatureSpace: a dict of raw columns (floats, integers, strings) -> one encoded vector per
sample (output_mode="concat") or a dict of encoded features ("dict"), as Keras 3.15 builds it.

Each feature has a preprocessing layer (Normalization, Rescaling, Discretization, IntegerLookup,
StringLookup, Hashing, Identity, or the user's own) that `adapt` fits on a Dataset of dicts; integer ids
marked "one_hot" are then multi-hot encoded over the preprocessor's cardinality; each cross hashes the
*preprocessed* ids of its features into `crossing_dim` bins. Outputs are ordered: the features by
name, then the crosses by name. A column of shape (batch,) is read as (batch, 1); a dict of scalars
is one sample, and its result loses the batch axis again.
"""
from __future__ import annotations

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ...layers.base import Layer
from ...layers.keras_tensor import KerasTensor
from ...layers.preprocessing.category_encoding import encode_categorical
from ...naming import unique_name
from .crossing import CrossHasher
from .specs import Cross, Feature

SIMPLE_TYPES = ("float", "float_normalized", "float_rescaled", "float_discretized", "integer_categorical",
                "string_categorical", "integer_hashed", "string_hashed")


def _layers():
    from ... import layers
    return layers


class FeatureSpace(Layer):
    """See the module docstring; the feature-type constructors below are Keras' (`FeatureSpace.float()`,
    ...), each making its preprocessing layer named "<name>_preprocessor"."""

    # --- the feature types ---
    @classmethod
    def cross(cls, feature_names, crossing_dim, output_mode="one_hot"):
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype, preprocessor, output_mode):
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name=None):
        name = name or unique_name("float")
        return Feature("float32", _layers().Identity(name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_rescaled(cls, scale=1.0, offset=0.0, name=None):
        name = name or unique_name("float_rescaled")
        return Feature("float32", _layers().Rescaling(scale=scale, offset=offset, name=f"{name}_preprocessor"),
                       "float")

    @classmethod
    def float_normalized(cls, name=None):
        name = name or unique_name("float_normalized")
        return Feature("float32", _layers().Normalization(axis=-1, name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_discretized(cls, num_bins, bin_boundaries=None, output_mode="one_hot", name=None):
        name = name or unique_name("float_discretized")
        layer = _layers().Discretization(num_bins=num_bins, bin_boundaries=bin_boundaries,
                                         name=f"{name}_preprocessor")
        return Feature("float32", layer, output_mode)

    @classmethod
    def integer_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None):
        name = name or unique_name("integer_categorical")
        layer = _layers().IntegerLookup(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                                        name=f"{name}_preprocessor")
        return Feature("int32", layer, output_mode)

    @classmethod
    def string_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None):
        name = name or unique_name("string_categorical")
        layer = _layers().StringLookup(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                                       name=f"{name}_preprocessor")
        return Feature("string", layer, output_mode)

    @classmethod
    def string_hashed(cls, num_bins, output_mode="one_hot", name=None):
        name = name or unique_name("string_hashed")
        return Feature("string", _layers().Hashing(num_bins=num_bins, name=f"{name}_preprocessor"), output_mode)

    @classmethod
    def integer_hashed(cls, num_bins, output_mode="one_hot", name=None):
        name = name or unique_name("integer_hashed")
        return Feature("int32", _layers().Hashing(num_bins=num_bins, name=f"{name}_preprocessor"), output_mode)

    # --- construction ---
    def __init__(self, features, output_mode="concat", crosses=None, crossing_dim=32, hashing_dim=32,
                 num_discretization_bins=32, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if not features:
            raise ValueError("The `features` argument cannot be None or empty.")
        self.crossing_dim, self.hashing_dim = crossing_dim, hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.features = {name: self._feature(name, spec) for name, spec in features.items()}
        self.crosses = [self._cross(spec, set(features)) for spec in crosses or []]
        self.crosses_by_name = {c.name: c for c in self.crosses}
        if output_mode not in ("dict", "concat"):
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {{'dict', 'concat'}}. "
                             f"Received: output_mode={output_mode}")
        self.output_mode = output_mode
        from ... import Input
        self.inputs = {name: Input(shape=(1,), dtype=f.dtype, name=name) for name, f in self.features.items()}
        self.preprocessors = {name: f.preprocessor for name, f in self.features.items()}
        self.crossers = {c.name: CrossHasher(c.crossing_dim, name=c.name) for c in self.crosses}
        self.encoded_features = None
        self._is_adapted = False

    def _feature(self, name, spec):
        if isinstance(spec, Feature):
            return spec
        if isinstance(spec, dict):
            return Feature.from_config(spec.get("config", spec))
        if spec not in SIMPLE_TYPES:
            raise ValueError(f"Invalid feature type: {spec}")
        if spec == "float_discretized":
            return self.float_discretized(num_bins=self.num_discretization_bins, name=name)
        if spec in ("integer_hashed", "string_hashed"):
            return getattr(self, spec)(self.hashing_dim, name=name)
        return getattr(self, spec)(name=name)

    def _cross(self, spec, known):
        if isinstance(spec, dict):
            spec = Cross.from_config(spec.get("config", spec))
        if isinstance(spec, Cross):
            return spec
        if not self.crossing_dim:
            raise ValueError("When specifying `crosses`, the argument `crossing_dim` (dimensionality of the crossing "
                             "space) should be specified as well.")
        if any(key not in known for key in spec):
            raise ValueError(f"All features referenced in the `crosses` argument should be present in the "
                             f"`features` dict. Received unknown features: {spec}")
        return Cross(spec, crossing_dim=self.crossing_dim)

    # --- adapting ---
    def _adaptable(self):
        """The features whose preprocessor still has something to learn from data."""
        names = []
        for name, layer in self.preprocessors.items():
            if not hasattr(layer, "adapt"):
                continue
            if getattr(layer, "input_mean", None) is not None:  # Normalization given its statistics
                continue
            if getattr(layer, "_vocabulary_in_config", False) or getattr(
                    getattr(layer, "_lookup_layer", None), "_vocabulary_in_config", False):
                continue
            if type(layer).__name__ == "Discretization" and getattr(layer, "num_bins", None) is None:
                continue
            names.append(name)
        return names

    def adapt(self, dataset):
        """Fits each adaptable preprocessor on its column of `dataset` (a Dataset of dicts, batched or
        not, or a dict of arrays / lists)."""
        from ...._src.data.dataset import Dataset
        if not isinstance(dataset, Dataset):
            if not isinstance(dataset, dict):
                raise ValueError(f"`adapt()` can only be called on a tf.data.Dataset or a dict of arrays/lists. "
                                 f"Received instead: {dataset} (of type {type(dataset)})")
            dataset = Dataset.from_tensor_slices(dataset)
        for name in self._adaptable():
            column = dataset.map(lambda x, name=name: x[name])
            rank = column.element_spec.shape.rank
            if rank == 0:
                column = column.batch(32)
            if rank in (0, 1):
                column = column.map(lambda x: _array.expand_dims(x, -1))
            self.preprocessors[name].adapt(column)
        self._is_adapted = True
        self.built = True
        self.encoded_features = None
        self.get_encoded_features()  # as Keras: a feature that cannot be encoded fails here

    def _check_adapted(self):
        if not self._is_adapted:
            if self._adaptable():
                raise ValueError("You need to call `.adapt(dataset)` on the FeatureSpace before you can start "
                                 "using it.")
            self._is_adapted = True

    # --- the functional pieces ---
    def get_inputs(self):
        self._check_adapted()
        return self.inputs

    def get_encoded_features(self):
        """The encoding of `get_inputs()` as KerasTensors, for building a model on top."""
        self._check_adapted()
        if self.encoded_features is None:
            self.encoded_features = Layer.__call__(self, dict(self.inputs))
        return self.encoded_features

    # --- calling ---
    def __call__(self, data):
        if not isinstance(data, dict):
            raise ValueError(f"A FeatureSpace can only be called with a dict. Received: data={data} (of type "
                             f"{type(data)}")
        self._check_adapted()
        if any(isinstance(v, KerasTensor) for v in data.values()):
            return Layer.__call__(self, data)
        columns, single = {}, False
        for name, value in data.items():
            x = convert_to_tensor(value)
            if x.shape.rank == 0:
                x, single = _array.reshape(x, [1, 1]), True
            elif x.shape.rank == 1:
                x = _array.expand_dims(x, -1)
            columns[name] = x
        out = self.call(columns)
        if not single:
            return out
        if self.output_mode == "concat":
            return _array.squeeze(out, [0])
        return {name: _array.squeeze(x, [0]) if x.shape.rank == 2 and x.shape[0] == 1 else x
                for name, x in out.items()}

    def call(self, data):
        preprocessed = {name: self.preprocessors[name](data[name]) for name in self.features}
        crossed = {c.name: self.crossers[c.name]([preprocessed[n] for n in c.feature_names]) for c in self.crosses}
        named = [(name, preprocessed[name], self.features[name]) for name in sorted(preprocessed)]
        named += [(name, crossed[name], self.crosses_by_name[name]) for name in sorted(crossed)]
        encoded = {}
        for name, value, spec in named:
            if spec.output_mode == "one_hot":
                value = self._one_hot(name, value)
            if self.output_mode == "concat" and (value.dtype.is_integer or value.dtype.name == "string"):
                raise ValueError(f"Cannot concatenate features because feature '{name}' has not been encoded (it has "
                                 f"dtype {value.dtype.name}). Consider using `output_mode='dict'`.")
            encoded[name] = value
        if self.output_mode == "dict":
            return encoded
        return concat(list(encoded.values()), axis=-1)

    def _one_hot(self, name, ids):
        if not ids.dtype.is_integer:
            raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. Thus its preprocessor should return an "
                             f"integer dtype. Instead it returns a {ids.dtype.name} dtype.")
        layer = self.preprocessors.get(name) or self.crossers.get(name)
        if hasattr(layer, "vocabulary_size"):
            depth = layer.vocabulary_size()
        elif hasattr(layer, "num_tokens"):
            depth = layer.num_tokens
        elif getattr(layer, "num_bins", None) is not None:
            depth = layer.num_bins
        elif getattr(layer, "bin_boundaries", None) is not None:
            depth = len(layer.bin_boundaries) + 1
        else:
            raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. However it isn't a standard feature and "
                             f"the dimensionality of its output space is not known, thus it cannot be one-hot "
                             f"encoded. Try using `output_mode='int'`.")
        return encode_categorical(ids, "multi_hot", depth, "float32")

    # --- saving ---
    def save(self, filepath):
        """Writes the FeatureSpace (config, preprocessors' weights and vocabularies) to a `.keras` file, which
        keras.models.load_model reads back."""
        from ...saving.model_saving import save_model
        save_model(self, filepath)

    def get_build_config(self):
        """Each preprocessor's build (its weights' shapes); one built by `adapt` saw (batch, 1) columns."""
        def build_config(layer):
            config = layer.get_build_config()
            if config is None and layer.built and layer.weights:
                config = {"input_shape": [None, 1]}
            return config
        return {name: build_config(f.preprocessor) for name, f in self.features.items()}

    def build_from_config(self, config):
        for name, build in (config or {}).items():
            layer = self.features[name].preprocessor
            if build is not None and not layer.built:
                layer.build_from_config(build)
        self._is_adapted = True
        self.built = True

    # --- configuration ---
    def get_config(self):
        return {"name": self.name,
                "features": {name: {"module": "keras.src.layers.preprocessing.feature_space", "class_name": "Feature",
                                    "config": f.get_config(), "registered_name": "Feature"}
                             for name, f in self.features.items()},
                "output_mode": self.output_mode,
                "crosses": [{"module": "keras.src.layers.preprocessing.feature_space", "class_name": "Cross",
                             "config": c.get_config(), "registered_name": "Cross"} for c in self.crosses],
                "crossing_dim": self.crossing_dim, "hashing_dim": self.hashing_dim,
                "num_discretization_bins": self.num_discretization_bins}

    @classmethod
    def from_config(cls, config):
        return cls(**config)
