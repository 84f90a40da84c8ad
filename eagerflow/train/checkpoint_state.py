"""The `checkpoint` file of a checkpoint directory: which checkpoints it holds, newest last.

TensorFlow writes it as the text form of its `CheckpointState` message, paths relative to the directory
when they lie in it:

    model_checkpoint_path: "ckpt-3"
    all_model_checkpoint_paths: "ckpt-2"
    all_model_checkpoint_paths: "ckpt-3"
    all_model_checkpoint_timestamps: 1796497433.1069777
    last_preserved_timestamp: 1796497431.69213

The text is read and written by protobuf's own text format on the generated message
(formats/protos/checkpoint_state.proto, TensorFlow's field numbers): strings in C escapes, non-ASCII bytes in
octal as TensorFlow writes them. A file protobuf cannot parse is DataLossError naming the file and the line. The
state files of eagerflow's earlier JSON format are still read (legacy_json.py).
`latest_checkpoint`, `get_checkpoint_state`, `checkpoints_iterator`: TensorFlow's functions over it.
"""
from __future__ import annotations

import os
import re
import time

from .._src.core.errors import DataLossError
from .._src.io.atomic import write_file_atomically
from ..saved_model.files import read_regular_file
from . import legacy_json

STATE_FILE = "checkpoint"
_MAX_STATE_BYTES = 16 << 20
_POSITION = re.compile(r"^(\d+):(\d+) : ")


class CheckpointState:
    """TensorFlow's CheckpointState: the newest checkpoint, all kept ones, when each was written."""

    def __init__(self, model_checkpoint_path="", all_model_checkpoint_paths=(), all_model_checkpoint_timestamps=(),
                 last_preserved_timestamp=0.0):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = [float(t) for t in all_model_checkpoint_timestamps]
        self.last_preserved_timestamp = float(last_preserved_timestamp)

    def to_proto(self):
        from .._src.formats.protos import checkpoint_state_pb2

        return checkpoint_state_pb2.CheckpointState(
            model_checkpoint_path=self.model_checkpoint_path,
            all_model_checkpoint_paths=self.all_model_checkpoint_paths,
            all_model_checkpoint_timestamps=self.all_model_checkpoint_timestamps,
            last_preserved_timestamp=self.last_preserved_timestamp)

    def __str__(self):
        from google.protobuf import text_format

        return text_format.MessageToString(self.to_proto(), as_utf8=False)

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, CheckpointState) and str(self) == str(other)

    __hash__ = None


def parse_state(text: str, path) -> CheckpointState:
    """The CheckpointState that `text` (TensorFlow's text form) holds; DataLossError naming `path` and the line
    otherwise."""
    from google.protobuf import text_format

    from .._src.formats.protos import checkpoint_state_pb2

    message = checkpoint_state_pb2.CheckpointState()
    try:
        text_format.Parse(text, message)
    except text_format.ParseError as err:
        where = _POSITION.match(str(err))
        problem = str(err)[where.end():] if where else str(err)
        line = f"line {where.group(1)}: " if where else ""
        raise DataLossError(None, None, f"{path}: {line}not a checkpoint state ({problem})") from None
    return CheckpointState(message.model_checkpoint_path, message.all_model_checkpoint_paths,
                           message.all_model_checkpoint_timestamps, message.last_preserved_timestamp)


def _absolute(directory, path):
    return path if not path or os.path.isabs(path) else os.path.join(directory, path)


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The directory's CheckpointState (paths made absolute), or None when it has no state file."""
    directory = os.fspath(checkpoint_dir)
    path = os.path.join(directory, latest_filename or STATE_FILE)
    if not os.path.exists(path):
        return None
    raw = read_regular_file(path, _MAX_STATE_BYTES, "checkpoint state")
    if raw.lstrip().startswith(b"{"):  # eagerflow's earlier JSON state file
        latest, paths = legacy_json.read_state(path)
        state = CheckpointState(latest or "", paths)
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise DataLossError(None, None, f"{path}: not a checkpoint state (not UTF-8 text)") from None
        state = parse_state(text, path)
    state.model_checkpoint_path = _absolute(directory, state.model_checkpoint_path)
    state.all_model_checkpoint_paths = [_absolute(directory, p) for p in state.all_model_checkpoint_paths]
    return state


def write_state(directory, latest, paths, timestamps=None, last_preserved=None) -> None:
    """Write the directory's state file, paths inside it relative (as TensorFlow writes them)."""
    directory = os.fspath(directory)

    def relative(p):
        return os.path.relpath(p, directory) if os.path.dirname(os.path.abspath(p)) == os.path.abspath(
            directory) else p
    state = CheckpointState(relative(latest), [relative(p) for p in paths], timestamps or (),
                            last_preserved or 0.0)
    write_file_atomically(os.path.join(directory, STATE_FILE), str(state).encode("utf-8"))


def checkpoint_exists(prefix) -> bool:
    prefix = os.fspath(prefix)
    return os.path.lexists(f"{prefix}.index") or legacy_json.exists(prefix)


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The newest checkpoint prefix recorded in `checkpoint_dir` whose files exist, or None."""
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state is None or not state.model_checkpoint_path:
        return None
    return state.model_checkpoint_path if checkpoint_exists(state.model_checkpoint_path) else None


def wait_for_new_checkpoint(checkpoint_dir, last_checkpoint=None, seconds_to_sleep=1, timeout=None):
    """The newest checkpoint once it differs from `last_checkpoint`; None after `timeout` seconds."""
    stop = None if timeout is None else time.time() + timeout
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last_checkpoint:
            return path
        if stop is not None and time.time() + seconds_to_sleep > stop:
            return None
        time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yields each new checkpoint of `checkpoint_dir` as it appears, at most one every `min_interval_secs`;
    ends when none appears within `timeout` seconds (unless `timeout_fn` returns False: then it waits on)."""
    path = None
    while True:
        found = wait_for_new_checkpoint(checkpoint_dir, path, timeout=timeout)
        if found is None:
            if timeout_fn is None or timeout_fn():
                return
            continue
        start = time.time()
        path = found
        yield path
        pause = start + min_interval_secs - time.time()
        if pause > 0:
            time.sleep(pause)
