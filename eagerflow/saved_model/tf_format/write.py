"""Writes a built SavedModel (build.py) into a directory in TensorFlow's layout:

    saved_model.pb                                   the SavedModel message
    variables/variables.index, .data-00000-of-00001  the variables and the checkpoint object graph
    fingerprint.pb                                   hashes of the parts, as TensorFlow 2.21 writes
    assets/                                          files the model's Asset objects name

The caller writes into a temporary directory that replaces the target when everything is written
(io/atomic.py's atomic_directory)."""
from __future__ import annotations

import hashlib
import os
import shutil

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.formats.graph_export.proto_fill import fill
from ..._src.formats.tensor_bundle import write_bundle
from .build import OBJECT_GRAPH_KEY

SAVED_MODEL_FILENAME_PB = "saved_model.pb"
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"
ASSETS_DIRECTORY = "assets"
FINGERPRINT_FILENAME = "fingerprint.pb"
FINGERPRINT_PRODUCER = 1


def write_saved_model(directory, built):
    from ..._src.formats.protos import fingerprint_pb2, saved_model_pb2, trackable_object_graph_pb2
    message = fill(saved_model_pb2.SavedModel(), built.saved_model)
    encoded = message.SerializeToString(deterministic=True)
    with open(os.path.join(directory, SAVED_MODEL_FILENAME_PB), "wb") as f:
        f.write(encoded)
    object_graph = fill(trackable_object_graph_pb2.TrackableObjectGraph(), built.object_graph)
    tensors = dict(built.variables)
    tensors[OBJECT_GRAPH_KEY] = (np.array(object_graph.SerializeToString(deterministic=True), dtype=object),
                                 _dt.string)
    os.makedirs(os.path.join(directory, VARIABLES_DIRECTORY), exist_ok=True)
    prefix = os.path.join(directory, VARIABLES_DIRECTORY, VARIABLES_FILENAME)
    write_bundle(prefix, tensors)
    os.makedirs(os.path.join(directory, ASSETS_DIRECTORY), exist_ok=True)
    for source in built.asset_files:
        shutil.copyfile(source, os.path.join(directory, ASSETS_DIRECTORY, os.path.basename(source)))
    meta = message.meta_graphs[0]
    with open(prefix + ".index", "rb") as f:
        checkpoint = f.read()
    fingerprint = fingerprint_pb2.FingerprintDef(
        saved_model_checksum=_hash(encoded),
        graph_def_program_hash=_hash(meta.graph_def.SerializeToString(deterministic=True)),
        signature_def_hash=_hash(b"".join(k.encode() + meta.signature_def[k].SerializeToString(deterministic=True)
                                          for k in sorted(meta.signature_def))),
        saved_object_graph_hash=_hash(meta.object_graph_def.SerializeToString(deterministic=True)),
        checkpoint_hash=_hash(checkpoint))
    fingerprint.version.producer = FINGERPRINT_PRODUCER
    with open(os.path.join(directory, FINGERPRINT_FILENAME), "wb") as f:
        f.write(fingerprint.SerializeToString(deterministic=True))


def _hash(data: bytes) -> int:
    """A 64-bit content hash (BLAKE2b; TensorFlow's loader reads these as opaque identifiers)."""
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")
