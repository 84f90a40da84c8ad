"""Every test runs with the pipeline's debug checks on: graph/verify.py after each pass; and leaves
eagerflow's logger as it found it (bench code some tests call filters the retracing advice, which a later
test in the same process asserts on), and with no global random seed (a test that calls
tf.random.set_seed would otherwise change the draws of every seeded op in later tests of its process)."""
import logging

import pytest

from eagerflow._src.core.context import random_seeds
from eagerflow._src.ops.random.draws import set_seed
from eagerflow._src.passes import pipeline


@pytest.fixture(autouse=True)
def _verify_every_pass(monkeypatch):
    monkeypatch.setattr(pipeline, "VERIFY", True)


@pytest.fixture(autouse=True)
def _restore_eagerflow_logger_filters():
    logger = logging.getLogger("eagerflow")
    filters = list(logger.filters)
    yield
    logger.filters[:] = filters


@pytest.fixture(autouse=True)
def _unset_global_random_seed():
    yield
    if random_seeds.global_seed is not None:
        set_seed(None)
