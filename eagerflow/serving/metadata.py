"""GetModelStatus and GetModelMetadata answers as JSON, in the shape TensorFlow Serving prints its
protobuf messages (int64 fields as strings, every field present)."""
from __future__ import annotations


def status_json(states) -> dict:
    return {"model_version_status": [
        {"version": str(s.version), "state": s.state,
         "status": {"error_code": s.error_code, "error_message": s.error_message}} for s in states]}


def _tensor_info_json(info) -> dict:
    if info.shape is None:
        shape = {"dim": [], "unknown_rank": True}
    else:
        shape = {"dim": [{"size": str(-1 if d is None else d), "name": ""} for d in info.shape],
                 "unknown_rank": False}
    return {"dtype": info.dt_name, "tensor_shape": shape, "name": info.tensor_name}


def signature_def_json(signature) -> dict:
    return {"inputs": {a: _tensor_info_json(i) for a, i in signature.inputs.items()},
            "outputs": {a: _tensor_info_json(i) for a, i in signature.outputs.items()},
            "method_name": signature.method_name, "defaults": {}}


def metadata_json(model_name: str, servable) -> dict:
    return {"model_spec": {"name": model_name, "signature_name": "", "version": str(servable.version)},
            "metadata": {"signature_def": {"signature_def": {
                key: signature_def_json(sig) for key, sig in sorted(servable.signatures.items())}}}}
