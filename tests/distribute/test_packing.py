"""How gradients are packed for the all-reduce (mpi_communicator._packs): one contiguous buffer per dtype,
split where a pack would pass bytes_per_pack; every array in exactly one pack, in order."""
import numpy as np
import pytest

from eagerflow._src.distribute.mpi_communicator import _packs


def test_one_pack_per_dtype_without_a_limit():
    arrays = [np.zeros(10, np.float32), np.zeros(3, np.int64), np.zeros(5, np.float32)]
    assert _packs(arrays, 0) == [[0, 2], [1]]


@pytest.mark.parametrize("limit, expected", [(40, [[0], [1], [2], [3]]), (80, [[0, 1], [2, 3]]),
                                             (120, [[0, 1, 2], [3]]), (160, [[0, 1, 2, 3]])])
def test_packs_hold_about_bytes_per_pack(limit, expected):
    arrays = [np.zeros(10, np.float32) for _ in range(4)]  # 40 bytes each
    assert _packs(arrays, limit) == expected


def test_an_array_larger_than_a_pack_goes_alone():
    arrays = [np.zeros(1, np.float32), np.zeros(100, np.float32), np.zeros(1, np.float32)]
    assert _packs(arrays, 16) == [[0], [1], [2]]
