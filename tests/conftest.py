"""Every test runs with the pipeline's debug checks on: graph/verify.py after each pass; and leaves
eagerflow's logger as it found it (bench code some tests call filters the retracing advice, which a later
test in the same process asserts on)."""
import logging

import pytest

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
