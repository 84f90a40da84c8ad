"""Every test runs with the pipeline's debug checks on: graph/verify.py after each pass."""
import pytest

from eagerflow._src.passes import pipeline


@pytest.fixture(autouse=True)
def _verify_every_pass(monkeypatch):
    monkeypatch.setattr(pipeline, "VERIFY", True)
