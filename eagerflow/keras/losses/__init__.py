"""`keras.losses`: every loss by the names Keras 3 exports, and the name table behind
`get`/`serialize`/`deserialize`. The losses live one family per file beside this one: loss.py
(the bases and the reductions), losses.py (crossentropies, MSE, MAE), regression.py, probabilistic.py,
hinge.py, focal.py, overlap.py, ctc.py, circle.py."""
from __future__ import annotations

from ..._src.core.convert import convert_to_tensor
from ..saving import serialization as _serialization
from .circle import Circle, circle
from .ctc import CTC, ctc
from .focal import (BinaryFocalCrossentropy, CategoricalFocalCrossentropy, binary_focal_crossentropy,
                    categorical_focal_crossentropy)
from .hinge import CategoricalHinge, Hinge, SquaredHinge, categorical_hinge, hinge, squared_hinge
from .loss import (EPSILON, Loss, LossFunctionWrapper, Reduction, reduce_values,  # noqa: F401
                   squeeze_or_expand_to_same_rank)
from .losses import (MAE, MSE, BinaryCrossentropy, CategoricalCrossentropy, MeanAbsoluteError,  # noqa: F401
                     MeanSquaredError, SparseCategoricalCrossentropy, binary_crossentropy, categorical_crossentropy,
                     is_binary_or_sparse_categorical, mae, mean_absolute_error, mean_squared_error, mse,
                     sparse_categorical_crossentropy)
from .overlap import Dice, Tversky, dice, tversky
from .probabilistic import KLDivergence, Poisson, kl_divergence, poisson
from .regression import (CosineSimilarity, Huber, LogCosh, MeanAbsolutePercentageError,  # noqa: F401
                         MeanSquaredLogarithmicError, cosine_similarity, huber, log_cosh,
                         mean_absolute_percentage_error, mean_squared_logarithmic_error)

# Keras 3's other names for the same functions
KLD = kld = kullback_leibler_divergence = kl_divergence
MAPE = mape = mean_absolute_percentage_error
MSLE = msle = mean_squared_logarithmic_error
logcosh = log_cosh


# Keras 3's table of loss names (keras.losses.ALL_OBJECTS_DICT): a class name makes a default
# instance; a function name or short alias ('mse', 'BCE', 'kld') is the function itself. Not
# 'logcosh' or 'kullback_leibler_divergence': those exist as attributes but `get` refuses them.
_LOSS_CLASSES = (Loss, LossFunctionWrapper, SparseCategoricalCrossentropy, CategoricalCrossentropy,
                 BinaryCrossentropy, MeanSquaredError, MeanAbsoluteError, CTC, Circle, Huber, LogCosh,
                 MeanAbsolutePercentageError, MeanSquaredLogarithmicError, Poisson, CosineSimilarity, KLDivergence,
                 Hinge, SquaredHinge, CategoricalHinge, BinaryFocalCrossentropy, CategoricalFocalCrossentropy, Dice,
                 Tversky)


_CLASSES = {c.__name__: c for c in _LOSS_CLASSES if c not in (Loss, LossFunctionWrapper)}
_BASIC_FUNCTIONS = {f.__name__: f for f in (mean_squared_error, mean_absolute_error, binary_crossentropy,
                                            categorical_crossentropy, sparse_categorical_crossentropy)}
_FUNCTIONS = {**{f.__name__: f for f in (huber, log_cosh, mean_absolute_percentage_error,
                                          mean_squared_logarithmic_error, poisson, cosine_similarity, kl_divergence,
                                          hinge, squared_hinge, categorical_hinge, binary_focal_crossentropy,
                                          categorical_focal_crossentropy, dice, tversky)},
              **_BASIC_FUNCTIONS, "ctc": ctc, "circle": circle}
ALL_OBJECTS_DICT = {**{c.__name__: c for c in _LOSS_CLASSES}, **_FUNCTIONS,
                    "bce": binary_crossentropy, "BCE": binary_crossentropy,
                    "mse": mean_squared_error, "MSE": mean_squared_error,
                    "mae": mean_absolute_error, "MAE": mean_absolute_error,
                    "mape": mean_absolute_percentage_error, "MAPE": mean_absolute_percentage_error,
                    "msle": mean_squared_logarithmic_error, "MSLE": mean_squared_logarithmic_error,
                    "kld": kl_divergence, "KLD": kl_divergence}


def get(identifier):
    """A loss as Keras 3's `keras.losses.get` gives it: a function for a function name or alias
    ('mse' -> mean_squared_error), a default instance for a class name ('MeanSquaredError'), the
    deserialized object for a config dict; a function or Loss passes through."""
    return _serialization.get_keras_object(identifier, ALL_OBJECTS_DICT, "loss", deserialize)


def crossentropy_for_shapes(y_true, y_pred):
    """compile(loss='crossentropy' or 'ce'): binary, sparse categorical or categorical crossentropy,
    chosen from the shapes of targets and predictions as Keras 3 chooses."""
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    is_binary, is_sparse = is_binary_or_sparse_categorical(y_true, y_pred)
    if is_binary:
        return binary_crossentropy(y_true, y_pred)
    if is_sparse:
        return sparse_categorical_crossentropy(y_true, y_pred)
    return categorical_crossentropy(y_true, y_pred)


def get_compiled(identifier):
    """The loss compile() uses: `get`, except that 'crossentropy' / 'ce' (any case) pick their
    crossentropy by the shapes, as Keras 3's compile does (`get` itself refuses them)."""
    if isinstance(identifier, str) and identifier.lower() in ("crossentropy", "ce"):
        return LossFunctionWrapper(crossentropy_for_shapes, name=identifier)
    return get(identifier)


def serialize(loss):
    """Keras 3's dict for a loss: a Loss by class and config, a built-in function by its name."""
    if isinstance(loss, Loss):
        return _serialization.serialize_keras_object(loss, "keras.losses")
    registered = getattr(loss, "_keras_registered_name", None)
    return {"module": "builtins", "class_name": "function", "config": registered or loss.__name__,
            "registered_name": "function"}


def deserialize(config, custom_objects=None):
    """A loss from `serialize`'s dict or a name."""
    if isinstance(config, str):
        return get(config)
    if isinstance(config, dict) and config.get("class_name") == "function":
        name = config.get("config")
        found = (_FUNCTIONS.get(name) or _BASIC_FUNCTIONS.get(name)
                 or _serialization.get_registered_object(name, custom_objects))
        if found is None:
            raise ValueError(f"Could not interpret loss identifier: {name}")
        return found
    return _serialization.deserialize_keras_object(config, _CLASSES, custom_objects, "loss")
