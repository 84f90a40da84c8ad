"""The slow marker: tests marked `slow` (the 2,000-program AutoGraph run) are skipped unless the
`-m` expression names them: `pytest tests/autograph -m slow` runs them."""
import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: the 2,000-program AutoGraph run; skipped unless `-m slow` selects it")


def pytest_collection_modifyitems(config, items):
    if "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="a slow run: select it with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
