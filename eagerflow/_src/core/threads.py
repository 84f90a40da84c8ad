"""`tf.config.threading`: the inter-op and intra-op thread counts (0 = the system's choice).

Ops run one at a time here, so the inter-op count is only recorded. The intra-op count is the number
of threads a single op may use: our kernels are NumPy, whose multi-threaded work is the BLAS, so a
non-zero count limits the BLAS thread pools through threadpoolctl when it is installed (an optional
extra, imported only when a count is set) and 0 gives the BLAS back its own setting.
"""
from __future__ import annotations

import threading

_lock = threading.Lock()
_counts = {"inter": 0, "intra": 0}
_blas_limiter = []  # the active threadpoolctl limiter, so 0 can restore the original limits


def get_inter_op_parallelism_threads() -> int:
    return _counts["inter"]


def set_inter_op_parallelism_threads(num_threads) -> None:
    _counts["inter"] = _count(num_threads)


def get_intra_op_parallelism_threads() -> int:
    return _counts["intra"]


def set_intra_op_parallelism_threads(num_threads) -> None:
    n = _count(num_threads)
    with _lock:
        _counts["intra"] = n
        _limit_blas(n)


def _count(num_threads) -> int:
    n = int(num_threads)
    return max(n, 0)  # TensorFlow treats a negative count like 0: the system's choice


def _limit_blas(n: int) -> None:
    try:
        import threadpoolctl
    except ImportError:
        return
    while _blas_limiter:
        _blas_limiter.pop().restore_original_limits()
    if n > 0:
        _blas_limiter.append(threadpoolctl.threadpool_limits(limits=n, user_api="blas"))
