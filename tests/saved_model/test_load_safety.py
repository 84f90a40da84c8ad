"""Loaded files cannot touch the machine (issue 23, point 2).

What is refused, and how to opt in:
- tf.saved_model.load refuses a SavedModel whose functions (sub-graphs included) hold an op that
  reads or writes files (ReadFile, WriteFile, WriteSummary, the dataset iterator ops: every op whose
  OpDef `effects` name "files") with a PermissionDeniedError listing each op, its node and its
  function, unless `options=tf.saved_model.LoadOptions(eagerflow_allow_file_access=True)`; an op that
  runs Python (PyFunc, EagerPyFunc, PyFuncStateless) is refused whatever the options. A PrintV2 to a
  file stays refused as damaged (test_validation.py).
- No compile-time evaluation (constant folding, tf.get_static_value, the XLA tracer) runs such an
  op: a constant tf.io.read_file of a FIFO neither hangs load() nor tracing, and a file is read
  when the function runs, each time.
- Tensor and document files are read only when they are regular files, a tensor file only inside
  the model directory (a symlink out, to a FIFO or to a device is a DataLossError naming the file).
- keras.models.load_model with the default safe_mode=True refuses a StringLookup / IntegerLookup /
  TextVectorization config whose vocabulary is a file path, in Keras 3.15's words.
"""
import inspect
import json
import os
import shutil
import threading
import types
import zipfile

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.registry import OPS
from eagerflow.saved_model.graph_io import register_every_op

from .protobuf_edits import first_node, legacy_save, rewrite

ALLOW_FILES = tf.saved_model.LoadOptions(eagerflow_allow_file_access=True)
QUICK = 30  # seconds: what "does not hang" means here (a hang is forever)


def _finishes(fn, seconds=QUICK):
    """(finished, result, exception) of fn() run in a daemon thread given `seconds`."""
    box = {}

    def run():
        try:
            box["result"] = fn()
        except BaseException as err:  # noqa: BLE001 - handed to the test
            box["error"] = err
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    return not thread.is_alive(), box.get("result"), box.get("error")


@pytest.fixture
def make_fifo():
    """make_fifo(path) makes a FIFO there; at teardown a reader still blocked on one is released
    (a writer opens and closes it)."""
    made = []

    def make(path):
        os.mkfifo(path)
        made.append(path)
        return path
    yield make
    for path in made:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            continue  # no reader waiting
        os.close(fd)


@pytest.fixture
def fifo(tmp_path, make_fifo):
    return make_fifo(tmp_path / "fifo")


def _save(tmp_path, fn, signature, name="m"):
    holder = tf.Module()
    holder.f = tf.function(fn, input_signature=signature)
    directory = tmp_path / name
    tf.saved_model.save(holder, str(directory))
    return directory


# --- file ops are refused at load, unless the caller opts in ---
def test_a_model_that_writes_a_file_is_refused_and_the_opt_in_runs_it(tmp_path):
    payload = tmp_path / "outside" / "payload.txt"
    directory = _save(tmp_path, lambda x: (tf.io.write_file(str(payload), tf.strings.as_string(x)), x)[1],
                      [tf.TensorSpec([], tf.float32)])
    with pytest.raises(tf.errors.PermissionDeniedError) as info:
        tf.saved_model.load(str(directory))
    message = str(info.value)
    assert message.startswith(f"{directory}/saved_model.pb: this SavedModel's functions contain ops that reach "
                              f"outside the process")
    assert "node 'WriteFile' (op WriteFile) of function '_lambda_': reads or writes files" in message
    assert "options=tf.saved_model.LoadOptions(eagerflow_allow_file_access=True)" in message
    assert not payload.exists()

    loaded = tf.saved_model.load(str(directory), options=ALLOW_FILES)
    assert float(loaded.f(tf.constant(2.5))) == 2.5
    assert payload.read_text() == "2.500000"


def test_every_refused_op_is_listed_with_its_sub_graph(tmp_path):
    source = tmp_path / "secret.txt"
    source.write_text("secret")

    def both(path):
        text = tf.cond(tf.strings.length(path) > 0, lambda: tf.io.read_file(path), lambda: tf.constant(""))
        tf.io.write_file(path + ".copy", text)
        return text
    directory = _save(tmp_path, both, [tf.TensorSpec([], tf.string)])
    with pytest.raises(tf.errors.PermissionDeniedError) as info:
        tf.saved_model.load(str(directory))
    lines = [line for line in str(info.value).splitlines() if line.startswith("  - ")]
    assert len(lines) == 2, str(info.value)
    assert any("(op ReadFile) of function 'both' (in sub-graph '__inference_StatelessIf_then'" in line
               for line in lines)
    assert any("(op WriteFile) of function 'both': reads or writes files" in line for line in lines)
    loaded = tf.saved_model.load(str(directory), options=ALLOW_FILES)
    assert loaded.f(tf.constant(str(source))).numpy() == b"secret"
    assert (tmp_path / "secret.txt.copy").read_text() == "secret"


def test_an_op_that_runs_python_is_refused_whatever_the_options(tmp_path):
    directory = _save(tmp_path, lambda x: tf.identity(x) * 2.0, [tf.TensorSpec([], tf.float32)])
    rewrite(directory, lambda meta: setattr(first_node(meta, "Identity"), "op", "EagerPyFunc"))
    legacy = tmp_path / "legacy"  # eagerflow's earlier format, as old directories hold it
    holder = tf.Module()
    holder.f = tf.function(lambda x: tf.identity(x) * 2.0, input_signature=[tf.TensorSpec([], tf.float32)])
    legacy_save(holder, legacy)
    path = legacy / "saved_model.json"
    document = json.loads(path.read_text())
    next(op for op in document["functions"][0]["graph"]["ops"] if op["type"] == "Identity")["type"] = "EagerPyFunc"
    path.write_text(json.dumps(document))
    for saved in (directory, legacy):
        for options in (None, ALLOW_FILES):
            with pytest.raises(tf.errors.PermissionDeniedError, match=r"\(op EagerPyFunc\) of function '[_<]lambda[_>]': "
                                                                      r"runs Python code[\s\S]*Ops that run Python "
                                                                      r"code are never loaded"):
                tf.saved_model.load(str(saved), options=options)


def test_a_print_to_a_file_stays_refused_as_damaged_with_the_opt_in(tmp_path):
    directory = _save(tmp_path, lambda x: (tf.print(x), x)[1], [tf.TensorSpec([], tf.float32)])

    def to_a_file(meta):
        first_node(meta, "PrintV2").attr["output_stream"].s = f"file://{tmp_path / 'out.txt'}".encode()
    rewrite(directory, to_a_file)
    with pytest.raises(tf.errors.DataLossError, match="a PrintV2 loaded from a file may print to stdout or stderr"):
        tf.saved_model.load(str(directory), options=ALLOW_FILES)
    assert not (tmp_path / "out.txt").exists()


def test_the_graph_reader_refuses_what_the_scan_would(tmp_path):
    """The readers check each op they build again, so an op the scan missed is still refused."""
    from eagerflow._src.formats.protos import saved_model_pb2
    from eagerflow.saved_model.graph_io import GraphReader
    from eagerflow.saved_model.tf_format.function_import import FunctionImporter
    holder = tf.Module()
    holder.f = tf.function(lambda p: tf.io.read_file(p), input_signature=[tf.TensorSpec([], tf.string)])
    legacy_save(holder, tmp_path / "legacy")
    document = json.loads((tmp_path / "legacy" / "saved_model.json").read_text())
    reader = GraphReader("model.json", None, None)
    with pytest.raises(tf.errors.PermissionDeniedError, match=r"\(op ReadFile\)"):
        reader.function_graph(document["functions"][0]["graph"], "function 0")
    allowing = GraphReader("model.json", None, None, frozenset({"files"}))
    graph, _, _ = allowing.function_graph(document["functions"][0]["graph"], "function 0")
    assert "ReadFile" in [op.type for op in graph.get_operations()]

    directory = _save(tmp_path, lambda p: tf.io.read_file(p), [tf.TensorSpec([], tf.string)])
    meta = saved_model_pb2.SavedModel.FromString((directory / "saved_model.pb").read_bytes()).meta_graphs[0]
    name = next(n for n in meta.object_graph_def.concrete_functions if "signature_wrapper" not in n)
    with pytest.raises(tf.errors.PermissionDeniedError, match=r"\(op ReadFile\)"):
        FunctionImporter("saved_model.pb", meta.graph_def.library).function_graph(name, [])
    graph, _, _ = FunctionImporter("saved_model.pb", meta.graph_def.library, frozenset({"files"})).function_graph(
        name, [])
    assert "ReadFile" in [op.type for op in graph.get_operations()]


def test_load_options_keep_tensorflows_options_and_check_ours():
    options = tf.saved_model.LoadOptions(allow_partial_checkpoint=True, experimental_io_device="/job:localhost")
    assert options.allow_partial_checkpoint and options.experimental_io_device == "/job:localhost"
    assert options.eagerflow_allow_file_access is False
    with pytest.raises(TypeError):
        tf.saved_model.LoadOptions(eagerflow_allow_file_access="yes")
    with pytest.raises(TypeError, match="LoadOptions"):
        tf.saved_model.load("/nonexistent", options={"eagerflow_allow_file_access": True})


# --- nothing is evaluated at compile or load time ---
def test_a_constant_read_of_a_fifo_is_never_evaluated_while_loading(tmp_path, fifo):
    target = tmp_path / "data.txt"
    target.write_text("at save time")
    directory = _save(tmp_path, lambda: tf.io.read_file(str(target)), [])
    target.unlink()
    os.symlink(fifo, target)  # the constant path now names a FIFO: reading it blocks until a writer comes
    done, _, error = _finishes(lambda: tf.saved_model.load(str(directory)))
    assert done and isinstance(error, tf.errors.PermissionDeniedError)
    done, loaded, error = _finishes(lambda: tf.saved_model.load(str(directory), options=ALLOW_FILES))
    assert done and error is None, error

    def feed():
        with open(fifo, "wb") as fh:
            fh.write(b"at run time")
    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    done, result, error = _finishes(loaded.f)
    assert done and error is None, error
    assert result.numpy() == b"at run time"


def test_tracing_never_reads_a_constant_path(fifo):
    @tf.function
    def read():
        content = tf.io.read_file(str(fifo))
        assert tf.get_static_value(content) is None
        return content
    done, concrete, error = _finishes(read.get_concrete_function)
    assert done and error is None, error
    assert [op.type for op in concrete.graph.get_operations()].count("ReadFile") == 1


def test_a_traced_read_sees_the_file_as_it_is_at_each_call(tmp_path):
    path = tmp_path / "state.txt"
    path.write_text("first")
    read = tf.function(lambda: tf.io.read_file(str(path)))
    assert read().numpy() == b"first"
    path.write_text("second")
    assert read().numpy() == b"second"


# --- the registry flags every op that touches files ---
_FILE_NAMES = {"open", "os", "gfile", "subprocess", "socket", "urllib", "shutil", "glob", "write_file_atomically",
               "mkfifo", "popen", "system"}


def _names_reached(fn, depth=0, seen=None):
    """Global and attribute names the function's code (nested code and eagerflow functions it
    calls by global name included, a few levels deep) refers to."""
    seen = set() if seen is None else seen
    code = getattr(fn, "__code__", None)
    if code is None or id(code) in seen or depth > 3:
        return set()
    seen.add(id(code))
    names, codes = set(), [code]
    while codes:
        c = codes.pop()
        names |= set(c.co_names)
        codes.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    for name in list(names):
        target = getattr(fn, "__globals__", {}).get(name)
        if inspect.isfunction(target) and target.__module__.startswith("eagerflow"):
            names |= _names_reached(target, depth + 1, seen)
    return names


# Kernels whose code names one of _FILE_NAMES without touching a file, each with the reason.
_NOT_FILES = {name: "Pillow's Image.open of the bytes in an io.BytesIO: nothing outside the tensor is read"
              for name in ("DecodePng", "DecodeJpeg", "DecodeImage", "DecodeBmp", "DecodeGif", "ExtractJpegShape",
                           "DecodeAndCropJpeg")}
_NOT_FILES.update({name: "ops/nn/block_threads.py sizes its thread pool from os.cpu_count, os.sched_getaffinity "
                         "and OMP_NUM_THREADS-style variables, and checks os.getpid after a fork: no file is touched"
                   for name in ("Conv2D", "Conv2DBackpropFilter", "Conv2DBackpropInput", "Conv3D",
                                "Conv3DBackpropFilterV2", "Conv3DBackpropInputV2", "MaxPool")})


def test_every_op_whose_kernel_touches_files_carries_the_files_effect():
    register_every_op()
    touching = sorted(name for name, op in OPS.items() if _names_reached(op.kernel) & _FILE_NAMES
                      and name not in _NOT_FILES)
    assert {"ReadFile", "WriteFile", "PrintV2"} <= set(touching)
    unflagged = []
    for name in touching:
        effects = OPS[name].effects
        if callable(effects):
            effects = effects({"output_stream": "file:///tmp/x"})
        if "files" not in effects:
            unflagged.append(name)
    assert unflagged == []
    assert all(OPS[name].effects for name in ("WriteSummary", "PyFunc", "EagerPyFunc", "PyFuncStateless"))
    assert OPS["PrintV2"].effects({"output_stream": "stderr"}) == frozenset()


# --- tensor files: regular files inside the model directory only ---
@pytest.fixture(params=["tensorflow", "legacy"])
def saved(tmp_path, request):
    """A model with one variable, in TensorFlow's layout (what a save writes) or in eagerflow's
    earlier format (what old directories hold)."""
    module = tf.Module()
    module.v = tf.Variable(np.arange(4, dtype=np.float32))
    module.f = tf.function(lambda: module.v * 2.0, input_signature=[])
    directory = tmp_path / "m"
    if request.param == "tensorflow":
        tf.saved_model.save(module, str(directory))
    else:
        legacy_save(module, directory)
    return directory


def _document(directory):
    return directory / ("saved_model.json" if (directory / "saved_model.json").exists() else "saved_model.pb")


def _tensor_file(directory):
    if not (directory / "saved_model.json").exists():
        return directory / "variables" / "variables.data-00000-of-00001"
    document = json.loads((directory / "saved_model.json").read_text())
    return directory / document["variables"][0]["value"]["file"]


def test_the_untouched_model_loads(saved):
    assert tf.saved_model.load(str(saved)).f().numpy().tolist() == [0.0, 2.0, 4.0, 6.0]


@pytest.mark.parametrize("linked", [False, True])
def test_a_tensor_file_that_is_a_fifo_is_refused_without_waiting(saved, make_fifo, linked):
    tensor = _tensor_file(saved)
    tensor.unlink()
    if linked:  # a link inside the model directory is followed, to what it names
        os.symlink(make_fifo(tensor.with_name("pipe")), tensor)
    else:
        make_fifo(tensor)
    done, _, error = _finishes(lambda: tf.saved_model.load(str(saved)))
    assert done, "load() blocked on a FIFO"
    assert isinstance(error, tf.errors.DataLossError)
    assert str(error).startswith(str(tensor)) and "not a regular file (it is a FIFO)" in str(error)


def test_a_document_that_is_a_fifo_is_refused_without_waiting(saved, make_fifo):
    document = _document(saved)
    document.unlink()
    make_fifo(document)
    done, _, error = _finishes(lambda: tf.saved_model.load(str(saved)))
    assert done, "load() blocked on a FIFO"
    assert isinstance(error, (OSError, tf.errors.DataLossError))


def test_a_tensor_file_linked_outside_the_model_directory_is_refused(saved, tmp_path):
    tensor = _tensor_file(saved)
    outside = tmp_path / "elsewhere.npy"
    shutil.copy(tensor, outside)  # the very same bytes: only where it lies is wrong
    tensor.unlink()
    os.symlink(outside, tensor)
    with pytest.raises(tf.errors.DataLossError, match=r"the tensor file is a link to .*elsewhere.npy', outside the "
                                                      r"model directory"):
        tf.saved_model.load(str(saved))


def test_a_tensor_file_linked_to_a_device_is_refused(saved):
    tensor = _tensor_file(saved)
    tensor.unlink()
    os.symlink("/dev/zero", tensor)
    with pytest.raises(tf.errors.DataLossError, match="outside the model directory"):
        tf.saved_model.load(str(saved))


def test_a_link_inside_the_model_directory_is_followed(saved):
    tensor = _tensor_file(saved)
    moved = tensor.with_name("moved.npy")
    tensor.rename(moved)
    os.symlink(moved, tensor)
    assert tf.saved_model.load(str(saved)).f().numpy().tolist() == [0.0, 2.0, 4.0, 6.0]


def test_a_checkpoint_tensor_that_is_a_fifo_is_refused(tmp_path, make_fifo):
    prefix = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).save(str(tmp_path / "ckpt" / "c"))
    for name in ("c-1.data-00000-of-00001", "c-1.index"):  # the data file, then the index too
        (tmp_path / "ckpt" / name).unlink()
        make_fifo(tmp_path / "ckpt" / name)
        done, _, error = _finishes(lambda: tf.train.Checkpoint(v=tf.Variable([0.0, 0.0])).restore(prefix))
        assert done, "restore blocked on a FIFO"
        assert isinstance(error, tf.errors.DataLossError) and "not a regular file (it is a FIFO)" in str(error)
        assert name in str(error)


# --- Keras: a vocabulary path in a config needs safe_mode=False ---
KERAS_REFUSAL = ("Requested the loading of a vocabulary file outside of the model archive. This carries a potential "
                 "risk of loading arbitrary and sensitive files and thus it is disallowed by default. If you trust "
                 "the source of the artifact, you can override this error by passing `safe_mode=False` to the "
                 "loading function, or calling `keras.config.enable_unsafe_deserialization(). Vocabulary file: ")


@pytest.mark.parametrize("layer", ["StringLookup", "TextVectorization"])
def test_keras_safe_mode_refuses_a_vocabulary_file(tmp_path, layer):
    vocabulary = tmp_path / "vocabulary.txt"
    vocabulary.write_text("secret\nwords\n")
    inputs = tf.keras.Input(shape=(1,), dtype="string")
    outputs = getattr(tf.keras.layers, layer)(vocabulary=["a", "b"])(inputs)
    path = tmp_path / "m.keras"
    tf.keras.Model(inputs, outputs).save(str(path))
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    config = json.loads(members["config.json"])
    config["config"]["layers"][1]["config"]["vocabulary"] = str(vocabulary)
    members["config.json"] = json.dumps(config).encode()
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)

    with pytest.raises(ValueError) as info:
        tf.keras.models.load_model(str(path))
    assert str(info.value) == KERAS_REFUSAL + f"'{vocabulary}'"
    model = tf.keras.models.load_model(str(path), safe_mode=False)
    specials = ["[UNK]"] if layer == "StringLookup" else ["", "[UNK]"]  # TextVectorization's mask token ""
    assert model.layers[1].get_vocabulary() == specials + ["secret", "words"]


def test_a_vocabulary_file_outside_loading_is_read(tmp_path):
    vocabulary = tmp_path / "vocabulary.txt"
    vocabulary.write_text("x\ny\n")
    assert tf.keras.layers.StringLookup(vocabulary=str(vocabulary)).get_vocabulary() == ["[UNK]", "x", "y"]


def test_the_command_line_refuses_a_model_that_touches_files(tmp_path, capsys):
    from eagerflow.__main__ import main
    holder = tf.Module()
    holder.f = tf.function(lambda x: tf.io.read_file(x), input_signature=[tf.TensorSpec([], tf.string, name="x")])
    directory = tmp_path / "m"
    tf.saved_model.save(holder, str(directory), signatures={"serving_default": holder.f})
    secret = tmp_path / "secret.txt"
    secret.write_text("not for the model")
    assert main(["saved-model", "run", "--dir", str(directory), "--signature_def", "serving_default",
                 "--input_exprs", f"x={str(secret)!r}"]) == 1
    out, err = capsys.readouterr()
    assert "the SavedModel is refused" in err and "(op ReadFile)" in err and "not for the model" not in out
    # `show` runs nothing (it reads saved_model.pb as saved_model_cli does) and names the op among the graph's
    assert main(["saved-model", "show", "--dir", str(directory), "--all"]) == 0
    assert "'ReadFile'" in capsys.readouterr().out
