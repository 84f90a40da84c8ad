"""The models a server serves and their versions: loading, hot swaps, and looking a request's
version up, with TensorFlow Serving's states and messages.

A poll (at start, then every --file_system_poll_wait_seconds on a background thread) lists each
model's version folders, asks the model's version policy which to serve, loads the new ones and
only then retires the versions no longer wanted: a version is published (AVAILABLE) after it has
loaded completely, and an old one is retired only once some wanted version is AVAILABLE, so a
version that fails to load is reported in the status while the previous one keeps serving.
Requests read an immutable snapshot ({version: VersionState}) that each change replaces whole, so
no request sees a half-loaded model and none waits for a load.
"""
from __future__ import annotations

import gc
import logging
import threading
from dataclasses import dataclass, replace

from .errors import ServingError, invalid_argument, not_found
from .servable import load_servable
from .versions import fingerprint, version_folders

log = logging.getLogger("eagerflow.serving")


@dataclass(frozen=True)
class VersionState:
    """TensorFlow Serving's ModelVersionStatus: `state` is START, LOADING, AVAILABLE, UNLOADING or END;
    `error_code`/`error_message` say why a version that failed to load is END."""
    version: int
    state: str
    error_code: str = "OK"
    error_message: str = ""
    servable: object = None
    fingerprint: tuple = ()


def _load_error_code(err) -> str:
    if isinstance(err, ServingError):  # a warmup request that failed, with its own code
        return err.code
    name = type(err).__name__
    if isinstance(err, FileNotFoundError) or isinstance(err, OSError) and "does not exist" in str(err):
        return "NOT_FOUND"
    for code in ("DataLoss", "PermissionDenied", "InvalidArgument"):
        if code in name:
            return {"DataLoss": "DATA_LOSS", "PermissionDenied": "PERMISSION_DENIED",
                    "InvalidArgument": "INVALID_ARGUMENT"}[code]
    return "UNKNOWN"


YOUNG_COLLECTION_THRESHOLD = 20000  # allocations between collections of the youngest generation (Python: 700)


def collect_young_objects_less_often():
    """Raise the youngest generation's collection threshold for the serving process. Python counts the
    container objects allocated and not yet freed, and collects at 700. A JSON request's parsed rows are
    many small lists (812 for one 28x28x1 image), alive until the request is decoded, so at 700 nearly every
    such request ran a collection that walked them and promoted them to the older generations, and a full
    collection came every ~140 requests (measured in the CNN's REST handler: 0.9 collections per request).
    Reference counting frees those lists anyway, so at 20000 the count never gets there during a request:
    no collection in 2,000 requests, 5-10% less CPU per request, as much as with the collector off; the
    collector still runs for objects that outlive requests or form cycles."""
    young, middle, old = gc.get_threshold()
    if young:  # 0: the collector is off, and stays off
        gc.set_threshold(max(young, YOUNG_COLLECTION_THRESHOLD), middle, old)


def settle_heap():
    """Collect the garbage, then move every live object out of the garbage collector's view (gc.freeze):
    a loaded model's tens of thousands of objects live until it is unloaded, and without this each full
    collection walks them all (about 10 ms on this project's machine), a pause some request in every few
    hundred would wait for. Frozen objects are first given back to the collector (gc.unfreeze), so the
    cycles of a version unloaded since the last call are freed here."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


class _Model:
    def __init__(self, config):
        self.config = config
        self.versions: dict = {}  # replaced whole on every change (requests read it without a lock)

    def publish(self, version, state):
        versions = dict(self.versions)
        versions[version] = state
        self.versions = versions

    def latest_available(self):
        available = [v for v, s in self.versions.items() if s.state == "AVAILABLE"]
        return max(available) if available else None


class ModelManager:
    """Serves the models of `configs` (config.ModelConfig); `loader(path, version)` builds a Servable."""

    def __init__(self, configs, poll_wait_seconds: float = 1.0, loader=load_servable, on_change=None):
        self.models = {c.name: _Model(c) for c in configs}
        self.poll_wait_seconds = poll_wait_seconds
        self.loader = loader
        self.on_change = on_change  # called with (model name, VersionState) after each state change
        self._poll_lock = threading.Lock()
        self._retired = False  # a version stopped serving since the heap was last settled
        self._stop = threading.Event()
        self._thread = None

    # --- loading ---
    def start(self):
        """Load what is there now (the server starts answering after this), then poll in the background."""
        self.poll_once()
        if self.poll_wait_seconds > 0:
            self._thread = threading.Thread(target=self._poll_loop, name="eagerflow-serve-poll", daemon=True)
            self._thread.start()

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

    def _poll_loop(self):
        while not self._stop.wait(self.poll_wait_seconds):
            try:
                self.poll_once()
            except Exception:  # a poll must never end the poller; the next one tries again
                log.exception("polling the model base paths failed")

    def poll_once(self):
        with self._poll_lock:
            if self._retired:  # versions retired a poll ago: their last requests have been answered
                self._retired = False
                settle_heap()
            for model in list(self.models.values()):
                self._poll_model(model)

    def reconfigure(self, configs, check_labels=False):
        """Serve the models of `configs` from now on (a re-read --model_config_file, or a reload request): new
        models are added, changed ones keep their loaded versions under the new policy and labels, removed
        ones are unloaded (their requests get NOT_FOUND). The versions are loaded and retired before this
        returns. `check_labels`: a label naming a version not AVAILABLE then is a ServingError, and every
        model keeps the labels it had."""
        with self._poll_lock:
            previous = {name: model.config.labels for name, model in self.models.items()}
            models = {}
            for config in configs:
                model = self.models.get(config.name)
                if model is None:
                    model = _Model(config)
                model.config = config
                models[config.name] = model
            removed = [m for name, m in self.models.items() if name not in models]
            self.models = models  # replaced whole: requests read it without a lock
            for model in removed:
                for version, state in list(model.versions.items()):
                    if state.state == "AVAILABLE":
                        self._set(model, VersionState(version, "END"))
            if check_labels:  # labels take effect only once checked against what has loaded
                for model in models.values():
                    model.config = replace(model.config, labels=previous.get(model.config.name, {}))
            for model in list(self.models.values()):
                self._poll_model(model)
            if check_labels:
                self._check_labels(configs)
                for config in configs:
                    models[config.name].config = config

    def _check_labels(self, configs):
        """FAILED_PRECONDITION (TensorFlow Serving's words) unless every label names an AVAILABLE version."""
        for config in configs:
            for label, version in config.labels.items():
                state = self.models[config.name].versions.get(version)
                if state is None or state.state != "AVAILABLE":
                    raise ServingError("FAILED_PRECONDITION", f"Request to assign label to version {version} of "
                                                              f"model {config.name}, which is not currently "
                                                              f"available for inference")

    def _poll_model(self, model):
        folders = version_folders(model.config.base_path)
        wanted = model.config.policy.choose(folders)
        if not folders:
            log.warning("no versions of servable %s found under base path %s", model.config.name,
                        model.config.base_path)
        for version in sorted(wanted, reverse=True):  # the newest first: it is what Latest serves
            current = model.versions.get(version)
            if current is not None and current.state == "AVAILABLE":
                continue
            prints = fingerprint(folders[version])
            if current is not None and current.error_code != "OK" and current.fingerprint == prints:
                continue  # failed before and unchanged since: reported, not retried
            self._load(model, version, folders[version], prints)
        if any(model.versions.get(v) and model.versions[v].state == "AVAILABLE" for v in wanted):
            for version, state in list(model.versions.items()):
                if version not in wanted and state.state == "AVAILABLE":
                    self._set(model, VersionState(version, "END"))

    def _load(self, model, version, folder, prints):
        self._set(model, VersionState(version, "LOADING", fingerprint=prints))
        try:
            servable = self.loader(folder, version)
        except Exception as err:
            log.error("loading servable {name: %s version: %d} failed: %s", model.config.name, version, err)
            message = err.message if isinstance(err, ServingError) else f"{type(err).__name__}: {err}"
            self._set(model, VersionState(version, "END", _load_error_code(err), message, fingerprint=prints))
            return
        settle_heap()
        self._set(model, VersionState(version, "AVAILABLE", servable=servable, fingerprint=prints))
        log.info("successfully loaded servable version {name: %s version: %d}", model.config.name, version)

    def _set(self, model, state):
        previous = model.versions.get(state.version)
        if previous is not None and previous.state == "AVAILABLE" and state.state != "AVAILABLE":
            self._retired = True
        model.publish(state.version, state)
        if self.on_change is not None:
            self.on_change(model.config.name, state)

    # --- requests ---
    def _version_for(self, model_name, version, label):
        """The version a request names (None: the latest), checking that its model and label exist."""
        if version is not None and label is not None:
            raise invalid_argument(f"Both model version ({version}) and model version label ({label}) "
                                   f"cannot be supplied.")
        model = self.models.get(model_name)
        if label is not None:
            if model is None or label not in model.config.labels:
                raise invalid_argument(f"Unrecognized servable version label: {label}")
            version = model.config.labels[label]
        return model, version

    def servable(self, model_name: str, version=None, label=None):
        """The loaded version a request names: NOT_FOUND ("Servable not found for request: ...") where there
        is none, exactly as TensorFlow Serving words it."""
        if not model_name:
            raise invalid_argument("ModelSpec has no name specified.")
        model, version = self._version_for(model_name, version, label)
        if version is None:
            chosen = model.latest_available() if model is not None else None
            if chosen is None:
                raise not_found(f"Servable not found for request: Latest({model_name})")
            return model.versions[chosen].servable
        state = model.versions.get(version) if model is not None else None
        if state is None or state.state != "AVAILABLE":
            raise not_found(f"Servable not found for request: Specific({model_name}, {version})")
        return state.servable

    def status(self, model_name: str, version=None, label=None) -> list:
        """[VersionState] for GetModelStatus: one version, or every version of the model seen so far."""
        if not model_name:
            raise invalid_argument("Missing model name in request.")
        model, version = self._version_for(model_name, version, label)
        versions = model.versions if model is not None else {}
        if version is not None:
            if version not in versions:
                raise not_found(f"Could not find version {version} of model {model_name}")
            return [versions[version]]
        if not versions:
            raise not_found(f"Could not find any versions of model {model_name}")
        return [versions[v] for v in sorted(versions, reverse=True)]
