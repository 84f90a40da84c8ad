"""`tf.keras` / `from eagerflow import keras`: the Keras 3 subset the seed programs use, built on
tf.Module, tf.Variable, the ops and tf.function. TensorFlow 2.21's Keras is the reference for names,
defaults, weight paths, summary() and fit()'s output."""
from . import activations, initializers, layers, models  # noqa: F401
from .layers import Input, Layer  # noqa: F401
from .models import Model, Sequential  # noqa: F401
from . import backend  # noqa: F401,E402
from . import constraints, losses, metrics, optimizers, regularizers  # noqa: F401,E402
from . import callbacks, saving  # noqa: F401,E402
from . import utils  # noqa: F401,E402
from . import ops  # noqa: F401,E402
from . import mixed_precision  # noqa: F401,E402
from . import datasets  # noqa: F401,E402
from . import random  # noqa: F401,E402
from . import preprocessing  # noqa: F401,E402
from . import applications  # noqa: F401,E402
from .layers import InputSpec  # noqa: F401,E402
from .losses import Loss  # noqa: F401,E402
from .metrics import Metric  # noqa: F401,E402
from .naming import name_scope  # noqa: F401,E402
from .optimizers import Optimizer  # noqa: F401,E402
from .regularizers import Regularizer  # noqa: F401,E402
from .variables import KerasVariable as Variable  # noqa: F401,E402
