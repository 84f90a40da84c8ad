"""Runs SavedModels through TensorFlow's C++ loader, the one TF Serving links (`tensorflow::LoadSavedModel`,
reached through TensorFlow's C API `TF_LoadSessionFromSavedModel`), and runs each SignatureDef with
`TF_SessionRun` by its tensor names, as TF Serving's Predict does.

This file is a script for TensorFlow's own environment (conftest.py's `run_tf`), never imported by the tests:
it loads TensorFlow's shared libraries with ctypes and never imports TensorFlow's Python (nor eagerflow), so
what runs is TensorFlow's C++ alone. In the working folder it reads `signatures.json`
({model: {signature key: {"inputs": {key: tensor name}, "outputs": {key: tensor name}}}}, written by
tf_session_runner.py from TensorFlow's parse of each saved_model.pb) and `inputs/MODEL.SIGNATURE.npz`, loads
`models/MODEL`, and writes each signature's outputs to `capi/MODEL.SIGNATURE.npz` (strings as bytes arrays);
its last line is JSON: {model: {"load": error or null, "runs": {signature: error or null}}}.
"""
import ctypes
import ctypes.util
import importlib.util
import json
import os

import numpy as np

_P = ctypes.c_void_p
_NUMPY = {1: np.float32, 2: np.float64, 3: np.int32, 4: np.uint8, 5: np.int16, 6: np.int8, 9: np.int64,
          10: np.bool_, 17: np.uint16, 19: np.float16, 22: np.uint32, 23: np.uint64}
_DATATYPE = {np.dtype(v): k for k, v in _NUMPY.items()}
_STRING = 7
_TSTRING_SIZE, _SMALL_CAPACITY = 24, 22  # sizeof(TF_TString); the longest string stored inline
_SMALL, _LARGE, _OFFSET, _VIEW = 0, 1, 2, 3  # TF_TString's type, in the low two bits of its first byte


class _Output(ctypes.Structure):
    _fields_ = [("oper", _P), ("index", ctypes.c_int)]


def _libraries():
    folder = importlib.util.find_spec("tensorflow").submodule_search_locations[0]  # finds, does not import
    framework = ctypes.CDLL(os.path.join(folder, "libtensorflow_framework.so.2"), mode=ctypes.RTLD_GLOBAL)
    cc = ctypes.CDLL(os.path.join(folder, "libtensorflow_cc.so.2"), mode=ctypes.RTLD_GLOBAL)
    return framework, cc


class CApi:
    def __init__(self):
        framework, cc = self._libs = _libraries()
        self.libc = ctypes.CDLL(ctypes.util.find_library("c"))
        self.libc.malloc.restype, self.libc.malloc.argtypes = _P, [ctypes.c_size_t]
        sig = {
            "TF_NewStatus": (_P,), "TF_DeleteStatus": (None, _P), "TF_GetCode": (ctypes.c_int, _P),
            "TF_Message": (ctypes.c_char_p, _P), "TF_NewGraph": (_P,), "TF_DeleteGraph": (None, _P),
            "TF_NewSessionOptions": (_P,), "TF_DeleteSessionOptions": (None, _P),
            "TF_LoadSessionFromSavedModel": (_P, _P, _P, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p),
                                             ctypes.c_int, _P, _P, _P),
            "TF_GraphOperationByName": (_P, _P, ctypes.c_char_p),
            "TF_SessionRun": (None, _P, _P, ctypes.POINTER(_Output), ctypes.POINTER(_P), ctypes.c_int,
                              ctypes.POINTER(_Output), ctypes.POINTER(_P), ctypes.c_int, _P, ctypes.c_int, _P, _P),
            "TF_CloseSession": (None, _P, _P), "TF_DeleteSession": (None, _P, _P),
            "TF_AllocateTensor": (_P, ctypes.c_int, ctypes.POINTER(ctypes.c_int64), ctypes.c_int, ctypes.c_size_t),
            "TF_DeleteTensor": (None, _P), "TF_TensorData": (_P, _P), "TF_TensorType": (ctypes.c_int, _P),
            "TF_NumDims": (ctypes.c_int, _P), "TF_Dim": (ctypes.c_int64, _P, ctypes.c_int),
            "TF_TensorByteSize": (ctypes.c_size_t, _P),
        }
        for name, (restype, *argtypes) in sig.items():
            f = getattr(cc, name, None) or getattr(framework, name)
            f.restype, f.argtypes = restype, argtypes
            setattr(self, name[3:], f)

    def _check(self, status):
        if self.GetCode(status) != 0:
            raise RuntimeError(f"TF_Code {self.GetCode(status)}: {self.Message(status).decode(errors='replace')}")

    def load(self, directory, tags=("serve",)):
        """(session, graph): what TF Serving's loader builds, variables restored and the init op run."""
        status, graph, options = self.NewStatus(), self.NewGraph(), self.NewSessionOptions()
        names = (ctypes.c_char_p * len(tags))(*[t.encode() for t in tags])
        try:
            session = self.LoadSessionFromSavedModel(options, None, directory.encode(), names, len(tags), graph,
                                                     None, status)
            self._check(status)
        finally:
            self.DeleteSessionOptions(options)
            self.DeleteStatus(status)
        return session, graph

    def close(self, session, graph):
        status = self.NewStatus()
        self.CloseSession(session, status)
        self.DeleteSession(session, status)
        self.DeleteStatus(status)
        self.DeleteGraph(graph)

    def _endpoint(self, graph, tensor_name):
        op, _, index = tensor_name.rpartition(":")
        oper = self.GraphOperationByName(graph, op.encode())
        if not oper:
            raise RuntimeError(f"the graph has no operation {op!r}")
        return _Output(oper, int(index))

    def _tensor(self, value):
        value = np.asarray(value)
        dims = (ctypes.c_int64 * value.ndim)(*value.shape)
        if value.dtype.kind in "SO":
            tensor = self.AllocateTensor(_STRING, dims, value.ndim, value.size * _TSTRING_SIZE)
            base = self.TensorData(tensor)
            for i, item in enumerate(value.reshape(-1).tolist()):
                self._write_string(base + i * _TSTRING_SIZE, bytes(item))
            return tensor
        data = value.tobytes()  # C order, also for a scalar (np.ascontiguousarray would make it 1-D)
        tensor = self.AllocateTensor(_DATATYPE[value.dtype], dims, value.ndim, len(data))
        ctypes.memmove(self.TensorData(tensor), data, len(data))
        return tensor

    def _write_string(self, address, data):
        raw = (ctypes.c_uint8 * _TSTRING_SIZE).from_address(address)
        ctypes.memset(address, 0, _TSTRING_SIZE)
        if len(data) <= _SMALL_CAPACITY:
            raw[0] = (len(data) << 2) | _SMALL
            ctypes.memmove(address + 1, data, len(data))
            return
        buffer = self.libc.malloc(len(data) + 1)  # TensorFlow frees a large string's buffer with free()
        ctypes.memmove(buffer, data + b"\0", len(data) + 1)
        words = (ctypes.c_uint64 * 3).from_address(address)
        words[0], words[1], words[2] = (len(data) << 2) | _LARGE, len(data), buffer

    @staticmethod
    def _read_string(address):
        kind = ctypes.c_uint8.from_address(address).value & 3
        if kind == _SMALL:
            return ctypes.string_at(address + 1, ctypes.c_uint8.from_address(address).value >> 2)
        words = (ctypes.c_uint64 * 3).from_address(address)
        if kind == _LARGE:
            return ctypes.string_at(words[2], words[0] >> 2)
        if kind == _VIEW:
            return ctypes.string_at(words[1], words[0] >> 2)
        small = (ctypes.c_uint32 * 2).from_address(address)  # an offset string: size, then the offset
        return ctypes.string_at(address + small[1], small[0] >> 2)

    def _array(self, tensor):
        shape = tuple(self.Dim(tensor, i) for i in range(self.NumDims(tensor)))
        kind, data = self.TensorType(tensor), self.TensorData(tensor)
        if kind == _STRING:
            count = int(np.prod(shape, dtype=np.int64))
            items = [self._read_string(data + i * _TSTRING_SIZE) for i in range(count)]
            return np.array(items, dtype=object).reshape(shape)
        dtype = np.dtype(_NUMPY[kind])
        size = self.TensorByteSize(tensor)
        return np.frombuffer(ctypes.string_at(data, size), dtype).reshape(shape).copy()

    def run(self, session, graph, feeds, fetches):
        """{tensor name: array} fed, [tensor name] fetched: a list of arrays (strings as object arrays)."""
        status = self.NewStatus()
        inputs = (_Output * len(feeds))(*[self._endpoint(graph, n) for n in feeds])
        values = (_P * len(feeds))(*[self._tensor(v) for v in feeds.values()])
        outputs = (_Output * len(fetches))(*[self._endpoint(graph, n) for n in fetches])
        results = (_P * len(fetches))()
        try:
            self.SessionRun(session, None, inputs, values, len(feeds), outputs, results, len(fetches), None, 0,
                            None, status)
            self._check(status)
            return [self._array(t) for t in results]
        finally:
            for t in list(values) + [t for t in results if t]:
                self.DeleteTensor(t)
            self.DeleteStatus(status)


def _storable(array):
    return array.astype(bytes) if array.dtype == object else array


def main():
    api = CApi()
    with open("signatures.json") as f:
        models = json.load(f)
    os.makedirs("capi", exist_ok=True)
    report = {}
    for model, signatures in sorted(models.items()):
        entry = report[model] = {"load": None, "runs": {}}
        try:
            session, graph = api.load(os.path.abspath(os.path.join("models", model)))
        except RuntimeError as err:
            entry["load"] = str(err)
            continue
        for key, sig in sorted(signatures.items()):
            try:
                with np.load(os.path.join("inputs", f"{model}.{key}.npz"), allow_pickle=False) as stored:
                    feeds = {sig["inputs"][k]: stored[k] for k in sig["inputs"]}
                names = sorted(sig["outputs"])
                got = api.run(session, graph, feeds, [sig["outputs"][k] for k in names])
                np.savez(os.path.join("capi", f"{model}.{key}.npz"), **{k: _storable(v) for k, v in zip(names, got)})
                entry["runs"][key] = None
            except Exception as err:  # noqa: BLE001 - reported per signature; the test names it
                entry["runs"][key] = f"{type(err).__name__}: {err}"
        api.close(session, graph)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
