"""`keras.callbacks`: hooks fit/evaluate/predict call at the begin and end of training, epochs and
batches, one callback per file beside this one."""
from .backup_and_restore import BackupAndRestore  # noqa: F401
from .callback import Callback  # noqa: F401
from .callback_list import CallbackList  # noqa: F401
from .csv_logger import CSVLogger  # noqa: F401
from .early_stopping import EarlyStopping  # noqa: F401
from .history import History  # noqa: F401
from .lambda_callback import LambdaCallback  # noqa: F401
from .learning_rate_scheduler import LearningRateScheduler  # noqa: F401
from .model_checkpoint import ModelCheckpoint  # noqa: F401
from .monitor_callback import MonitorCallback  # noqa: F401
from .progbar_logger import ProgbarLogger  # noqa: F401
from .reduce_lr_on_plateau import ReduceLROnPlateau  # noqa: F401
from .tensorboard import TensorBoard  # noqa: F401
from .terminate_on_nan import TerminateOnNaN  # noqa: F401
