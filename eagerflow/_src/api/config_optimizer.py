"""`tf.config.optimizer`: the XLA switch (codegen/jit_setting.py)."""
from ..codegen.jit_setting import get_jit, set_jit  # noqa: F401
