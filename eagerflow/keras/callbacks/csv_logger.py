"""CSVLogger: one CSV row per epoch, written as the epoch ends."""
from __future__ import annotations

import collections.abc
import csv
import os

import numpy as np

from .callback import Callback


class CSVLogger(Callback):
    """One CSV row per epoch: 'epoch' then the log keys in sorted order (plus their 'val_' twins
    when the first epoch has no validation keys, written as NA). With append=True the header is
    written only into an empty or new file."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.filename, self.sep, self.append = os.fspath(filename), separator, append
        self.writer, self.keys, self.csv_file, self.append_header = None, None, None, True

    def on_train_begin(self, logs=None):
        if self.append and os.path.exists(self.filename):
            with open(self.filename) as f:
                self.append_header = not f.readline()
        if self.csv_file is not None and not self.csv_file.closed:
            self.csv_file.close()
        self.csv_file = open(self.filename, "a" if self.append else "w", newline="")  # noqa: SIM115 - kept for the run
        self.writer, self.keys = None, None

    @staticmethod
    def _cell(value):
        if isinstance(value, str) or isinstance(value, np.ndarray) and value.ndim == 0:
            return value
        if isinstance(value, collections.abc.Iterable):
            return f'"[{", ".join(map(str, value))}]"'
        return value

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
            if self.keys and not any(k.startswith("val_") for k in self.keys):
                self.keys += [f"val_{k}" for k in self.keys]
        if self.writer is None:
            self.writer = csv.writer(self.csv_file, delimiter=self.sep, lineterminator="\r\n")
            if self.append_header:
                self.writer.writerow(["epoch", *self.keys])
        self.writer.writerow([epoch, *(self._cell(logs.get(k, "NA")) for k in self.keys)])
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        if self.csv_file is not None and not self.csv_file.closed:
            self.csv_file.close()
        self.writer = None
