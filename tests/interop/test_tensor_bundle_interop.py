"""The tensor bundle and the protocol buffer schemas against real TensorFlow: TensorFlow reads the bundles
eagerflow writes (checksums included), and every message and field eagerflow defines has TensorFlow's number
and type."""
import json

import numpy as np

import eagerflow as tf
from eagerflow._src.formats.tensor_bundle import BundleReader, write_bundle


def test_tensorflow_reads_the_bundles_eagerflow_writes(tmp_path, run_tf):
    values = {"f32": np.arange(6, dtype=np.float32).reshape(2, 3) / 3, "i64": np.array([2 ** 40, -1], np.int64),
              "u8": np.array([255, 0], np.uint8), "bool": np.array([True, False]), "f16": np.array([1.5], np.float16),
              "c64": np.array([1 + 2j], np.complex64), "str": np.array([[b"hi", b""], [b"x" * 300, b"q"]], object),
              "scalar": np.float64(2.5), "empty": np.zeros((0, 2), np.int32)}
    write_bundle(str(tmp_path / "ours"), dict(values, bf16=tf.constant([1.5, -2.0], tf.bfloat16)))
    answer = run_tf("""
        import json
        import numpy as np
        import tensorflow as tf
        reader = tf.train.load_checkpoint("ours")
        out = {}
        for key, shape in reader.get_variable_to_shape_map().items():
            value = reader.get_tensor(key)
            if value.dtype == object:
                value = np.vectorize(lambda b: b.decode("latin-1"), otypes=[object])(value)
            elif value.dtype.kind == "c":
                value = np.stack([value.real, value.imag], -1)
            out[key] = [reader.get_variable_to_dtype_map()[key].name, shape, np.asarray(value, object).tolist()
                        if value.dtype == object else np.asarray(value, np.float64).tolist()]
        print(json.dumps(out))
    """)
    assert sorted(answer) == sorted(list(values) + ["bf16"])
    assert answer["bf16"] == ["bfloat16", [2], [1.5, -2.0]]
    assert answer["str"] == ["string", [2, 2], [["hi", ""], ["x" * 300, "q"]]]
    assert answer["c64"] == ["complex64", [1], [[1.0, 2.0]]]
    for key in ("f32", "i64", "u8", "bool", "f16", "scalar", "empty"):
        dtype = {"bool": "bool", "scalar": "float64", "f16": "float16"}.get(key, np.asarray(values[key]).dtype.name)
        assert answer[key][:2] == [dtype, list(np.shape(values[key]))], key
        assert np.array_equal(np.asarray(answer[key][2], np.float64).reshape(np.shape(values[key])),
                              np.asarray(values[key], np.float64)), key


def test_eagerflow_reads_a_checkpoint_tensorflow_writes(tmp_path, run_tf):
    run_tf("""
        import json
        import numpy as np
        import tensorflow as tf
        ck = tf.train.Checkpoint(w=tf.Variable(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)),
                                 s=tf.Variable(["a", "bc" * 100]), n=tf.Variable(np.int32(3)))
        ck.write("theirs")
        print(json.dumps(None))
    """)
    reader = BundleReader(str(tmp_path / "theirs"))
    key = "{}/.ATTRIBUTES/VARIABLE_VALUE".format
    np.testing.assert_array_equal(reader.read(key("w")), np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
    assert reader.read(key("s")).tolist() == [b"a", b"bc" * 100]
    assert reader.read(key("n")).dtype == np.int32 and int(reader.read(key("n"))) == 3


def test_every_message_and_field_has_tensorflows_number_and_type(tmp_path, run_tf):
    from google.protobuf import descriptor_pb2

    from eagerflow._src.formats.protos import _runtime  # noqa: F401  (loads the pool)
    import eagerflow._src.formats.protos as protos
    import importlib
    import pkgutil

    files = descriptor_pb2.FileDescriptorSet()
    for info in pkgutil.iter_modules(protos.__path__):
        if info.name.endswith("_pb2"):
            module = importlib.import_module(f"eagerflow._src.formats.protos.{info.name}")
            module.DESCRIPTOR.CopyToProto(files.file.add())
    (tmp_path / "ours.pb").write_bytes(files.SerializeToString())
    answer = run_tf("""
        import json
        from google.protobuf import descriptor_pb2, descriptor_pool
        import tensorflow  # noqa: F401  (registers TensorFlow's messages)
        from tensorflow.core.protobuf import saved_model_pb2, tensor_bundle_pb2, trackable_object_graph_pb2
        from tensorflow.core.framework import summary_pb2
        from tensorflow.core.util import event_pb2
        from tensorflow.core.example import example_pb2
        from tensorflow.core.protobuf import fingerprint_pb2
        from tensorflow.python.training import checkpoint_state_pb2  # for checkpoint_state.proto
        try:  # TensorFlow Serving's messages, for serving_apis.proto (CI installs tensorflow-serving-api)
            from tensorflow_serving.apis import get_model_metadata_pb2, get_model_status_pb2, classification_pb2
            from tensorflow_serving.apis import predict_pb2, regression_pb2
            from tensorflow_serving.apis import inference_pb2, model_management_pb2, prediction_log_pb2
            from tensorflow_serving.config import model_server_config_pb2  # for serving_config.proto
            serving = True
        except ImportError:
            serving = False
        pool = descriptor_pool.Default()
        ours = descriptor_pb2.FileDescriptorSet.FromString(open("ours.pb", "rb").read())
        STAND_INS = {"tensorflow.AnyValue": "google.protobuf.Any", "tensorflow.BoolWrapper": "google.protobuf.BoolValue",
                     "tensorflow.serving.Int64Wrapper": "google.protobuf.Int64Value"}
        problems, checked = [], 0
        def messages(prefix, found):
            for m in found:
                yield prefix + m.name, m
                yield from messages(prefix + m.name + ".", m.nested_type)
        for f in ours.file:
            if f.package == "tensorflow.serving" and not serving:
                continue
            for name, m in messages(f.package + ".", f.message_type):
                if m.options.map_entry or name in STAND_INS:
                    continue
                theirs = pool.FindMessageTypeByName(name)
                for field in m.field:
                    if field.name.startswith("eagerflow_"):  # eagerflow's own field, which TensorFlow skips
                        if field.number < 90000 or field.name in theirs.fields_by_name:
                            problems.append(f"{name}.{field.name} number")
                        continue
                    t = theirs.fields_by_name.get(field.name)
                    if t is None or t.number != field.number or t.type != field.type:
                        problems.append(f"{name}.{field.name}")
                    elif field.type in (11, 14):
                        mine = field.type_name.lstrip(".")
                        if STAND_INS.get(mine, mine) != (t.message_type or t.enum_type).full_name:
                            problems.append(f"{name}.{field.name} type")
                    checked += 1
            for e in f.enum_type:
                theirs = pool.FindEnumTypeByName(f.package + "." + e.name)
                for v in e.value:
                    if theirs.values_by_name.get(v.name) is None or theirs.values_by_name[v.name].number != v.number:
                        problems.append(f"{e.name}.{v.name}")
        print(json.dumps({"problems": problems, "checked": checked}))
    """)
    assert answer["problems"] == []
    assert answer["checked"] > 200
