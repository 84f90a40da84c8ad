"""The model manager: numbered version folders, version policies, hot swaps that keep serving, a
version that fails to load reported while the previous one serves, and TensorFlow Serving's
NOT_FOUND / INVALID_ARGUMENT messages for the version a request names."""
import os

import numpy as np
import pytest

from eagerflow.serving.config import ModelConfig, VersionPolicy
from eagerflow.serving.errors import ServingError
from eagerflow.serving.manager import ModelManager
from eagerflow.serving.versions import version_folders

from .models import affine_expected, save_affine

X = np.array([[1.0, 2.0]], np.float32)


def _predict(manager, name="m", version=None, label=None):
    servable = manager.servable(name, version, label)
    return servable.signature(None).run({"x": X})["y"]


def _states(manager, name="m"):
    return {s.version: (s.state, s.error_code) for s in manager.status(name)}


def test_version_folders_are_the_numeric_subfolders(tmp_path):
    for name in ("1", "002", "10", "tmp", "3.5", "-4"):
        (tmp_path / name).mkdir()
    (tmp_path / "7").write_text("a file, not a folder")
    assert sorted(version_folders(str(tmp_path))) == [1, 2, 10]
    assert version_folders(str(tmp_path / "absent")) == {}


def test_latest_version_serves_and_a_new_version_takes_over(tmp_path):
    save_affine(tmp_path / "1", 1.0)
    manager = ModelManager([ModelConfig("m", str(tmp_path))], poll_wait_seconds=0)
    manager.start()
    np.testing.assert_allclose(_predict(manager), affine_expected(X), rtol=1e-6)
    assert manager.servable("m").version == 1
    save_affine(tmp_path / "2", 2.0)
    manager.poll_once()
    np.testing.assert_allclose(_predict(manager), affine_expected(X, 2.0), rtol=1e-6)
    assert _states(manager) == {2: ("AVAILABLE", "OK"), 1: ("END", "OK")}
    with pytest.raises(ServingError, match=r"^Servable not found for request: Specific\(m, 1\)$") as info:
        manager.servable("m", 1)
    assert info.value.code == "NOT_FOUND" and info.value.http_status == 404


def test_a_version_that_fails_to_load_is_reported_and_the_previous_one_keeps_serving(tmp_path):
    save_affine(tmp_path / "1", 1.0)
    manager = ModelManager([ModelConfig("m", str(tmp_path))], poll_wait_seconds=0)
    manager.start()
    broken = tmp_path / "2"
    broken.mkdir()
    (broken / "saved_model.json").write_text("{not json")
    manager.poll_once()
    states = {s.version: s for s in manager.status("m")}
    assert states[2].state == "END" and states[2].error_code == "DATA_LOSS"
    assert "saved_model.json" in states[2].error_message
    assert states[1].state == "AVAILABLE"
    np.testing.assert_allclose(_predict(manager), affine_expected(X), rtol=1e-6)
    # repaired in place: the changed folder is loaded on the next poll
    (broken / "saved_model.json").unlink()
    os.rmdir(broken)
    save_affine(broken, 3.0)
    manager.poll_once()
    np.testing.assert_allclose(_predict(manager), affine_expected(X, 3.0), rtol=1e-6)


def test_all_and_specific_policies_and_labels(tmp_path):
    for version in (1, 2, 3):
        save_affine(tmp_path / str(version), float(version))
    manager = ModelManager([
        ModelConfig("every", str(tmp_path), VersionPolicy("all")),
        ModelConfig("some", str(tmp_path), VersionPolicy("specific", versions=(1, 3)),
                    labels={"stable": 1, "canary": 3, "gone": 2})], poll_wait_seconds=0)
    manager.start()
    assert sorted(s.version for s in manager.status("every")) == [1, 2, 3]
    for version in (1, 2, 3):
        np.testing.assert_allclose(_predict(manager, "every", version), affine_expected(X, version), rtol=1e-6)
    assert sorted(s.version for s in manager.status("some")) == [1, 3]
    assert manager.servable("some").version == 3
    np.testing.assert_allclose(_predict(manager, "some", label="stable"), affine_expected(X, 1.0), rtol=1e-6)
    np.testing.assert_allclose(_predict(manager, "some", label="canary"), affine_expected(X, 3.0), rtol=1e-6)
    with pytest.raises(ServingError, match=r"^Servable not found for request: Specific\(some, 2\)$"):
        manager.servable("some", label="gone")
    with pytest.raises(ServingError, match="^Unrecognized servable version label: beta$") as info:
        manager.servable("some", label="beta")
    assert info.value.code == "INVALID_ARGUMENT"
    with pytest.raises(ServingError, match=r"^Both model version \(1\) and model version label \(stable\) cannot"):
        manager.servable("some", 1, "stable")


def test_unknown_model_and_version_messages(tmp_path):
    save_affine(tmp_path / "1", 1.0)
    manager = ModelManager([ModelConfig("m", str(tmp_path))], poll_wait_seconds=0)
    manager.start()
    with pytest.raises(ServingError, match=r"^Servable not found for request: Latest\(other\)$"):
        manager.servable("other")
    with pytest.raises(ServingError, match="^Could not find any versions of model other$"):
        manager.status("other")
    with pytest.raises(ServingError, match="^Could not find version 9 of model m$") as info:
        manager.status("m", 9)
    assert info.value.code == "NOT_FOUND"


def test_the_background_poller_picks_up_a_new_version(tmp_path):
    save_affine(tmp_path / "1", 1.0)
    manager = ModelManager([ModelConfig("m", str(tmp_path))], poll_wait_seconds=0.05)
    manager.start()
    try:
        save_affine(tmp_path / "2", 2.0)
        import time
        deadline = time.monotonic() + 30
        while manager.servable("m").version != 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert manager.servable("m").version == 2
    finally:
        manager.stop()


def test_reconfigure_adds_changes_and_removes_models(tmp_path):
    for version in (1, 2):
        save_affine(tmp_path / "a" / str(version), float(version))
    save_affine(tmp_path / "b" / "1", 5.0)
    manager = ModelManager([ModelConfig("a", str(tmp_path / "a"))], poll_wait_seconds=0)
    manager.start()
    assert [s.version for s in manager.status("a")] == [2]
    manager.reconfigure([ModelConfig("a", str(tmp_path / "a"), VersionPolicy("specific", versions=(1,))),
                         ModelConfig("b", str(tmp_path / "b"))])
    assert manager.servable("a").version == 1 and _states(manager, "a") == {1: ("AVAILABLE", "OK"), 2: ("END", "OK")}
    np.testing.assert_allclose(_predict(manager, "b"), affine_expected(X, 5.0), rtol=1e-6)
    kept = manager.servable("b")
    manager.reconfigure([ModelConfig("a", str(tmp_path / "a"))])
    with pytest.raises(ServingError, match=r"^Servable not found for request: Latest\(b\)$"):
        manager.servable("b")
    np.testing.assert_allclose(kept.signature(None).run({"x": X})["y"], affine_expected(X, 5.0), rtol=1e-6)
    assert manager.servable("a").version == 2


def test_a_loaded_version_is_moved_out_of_the_garbage_collectors_view(tmp_path):
    """Full collections would otherwise walk every object of every loaded model (a pause of ~10 ms)."""
    import gc
    (tmp_path / "1").mkdir()

    class Loaded:
        def __init__(self, version):
            self.version = version
            self.cycle = [self]

    manager = ModelManager([ModelConfig("m", str(tmp_path))], poll_wait_seconds=0,
                           loader=lambda folder, version: Loaded(version))
    try:
        manager.start()
        loaded = manager.servable("m")
        assert gc.is_tracked(loaded) and gc.get_freeze_count() > 0
        assert not any(item is loaded for item in gc.get_objects())  # in the permanent generation
    finally:
        gc.unfreeze()


def test_a_retired_versions_objects_are_freed_at_the_next_poll(tmp_path):
    import gc
    import weakref
    (tmp_path / "1").mkdir()

    class Loaded:
        def __init__(self, version):
            self.version = version
            self.cycle = [self]  # freed only by the cycle collector

    manager = ModelManager([ModelConfig("m", str(tmp_path))], poll_wait_seconds=0,
                           loader=lambda folder, version: Loaded(version))
    try:
        manager.start()
        first = weakref.ref(manager.servable("m"))
        (tmp_path / "2").mkdir()
        manager.poll_once()  # version 2 takes over; version 1 is retired
        assert manager.servable("m").version == 2
        manager.poll_once()  # a poll later its objects are given back and collected
        assert first() is None
    finally:
        gc.unfreeze()
