"""Records Keras 3.15 (TensorFlow 2.21) answers for tests/keras/applications: run with the oracle's
Python (TF_CPP_MIN_LOG_LEVEL=3 /work/tfvenv/bin/python tests/keras/applications/make_oracle.py).
Writes keras_applications_oracle.json and data/tiny_*.h5 beside this file. Never imported by tests.
With constructor names as arguments, only their entries are recorded again (the rest of the file is kept)."""
import hashlib
import json
import os
import re
import sys

import numpy as np

import keras
from keras.src.applications import imagenet_utils
from keras.src.legacy.saving import legacy_h5_format

HERE = os.path.dirname(os.path.abspath(__file__))
A = keras.applications
# names Keras gives layers the application code leaves unnamed and eagerflow may build differently
# (hard sigmoid's ReLU, ConvNeXt's residual sum) where KerasTensors take no Python operators
AUTO_NAME = re.compile(r"^(re_lu|activation|add)(_\d+)?$")

STRUCTURE = {  # constructor -> kwargs (weights=None added); VGG's 224x224 head would hold 120M weights
    "MobileNet": {}, "MobileNetV2": {}, "MobileNetV3Small": {}, "MobileNetV3Large": {},
    "ResNet50": {}, "ResNet101": {}, "ResNet152": {}, "ResNet50V2": {}, "ResNet101V2": {}, "ResNet152V2": {},
    "EfficientNetB0": {}, "EfficientNetB1": {}, "EfficientNetB2": {}, "EfficientNetB3": {},
    "VGG16": {"input_shape": (32, 32, 3)}, "VGG19": {"input_shape": (32, 32, 3)},
    "DenseNet121": {}, "DenseNet169": {}, "DenseNet201": {}, "Xception": {}, "InceptionV3": {}, "ConvNeXtTiny": {},
    "EfficientNetV2B0": {}, "EfficientNetV2B3": {}, "EfficientNetV2S": {}, "InceptionResNetV2": {},
    "NASNetMobile": {},
}
# their minimum sizes; 32x32 for the rest
SMALL = {"Xception": (71, 71, 3), "InceptionV3": (75, 75, 3), "InceptionResNetV2": (75, 75, 3)}
POOLING = ["MobileNet", "MobileNetV2", "MobileNetV3Small", "ResNet50", "ResNet50V2", "EfficientNetB0", "VGG16",
           "DenseNet121", "Xception", "InceptionV3", "ConvNeXtTiny", "EfficientNetV2B0", "InceptionResNetV2"]
PARITY = {"MobileNet": {"alpha": 0.25}, "MobileNetV2": {"alpha": 0.35, "input_shape": (96, 96, 3)},
          "MobileNetV3Small": {"alpha": 0.75}, "ResNet50": {}, "ResNet50V2": {}, "EfficientNetB0": {}, "VGG16": {},
          "DenseNet121": {}, "Xception": {}, "InceptionV3": {}, "ConvNeXtTiny": {}, "EfficientNetV2B0": {},
          "EfficientNetV2S": {}, "InceptionResNetV2": {}, "NASNetMobile": {}}


def sha(items):
    return hashlib.sha256("\n".join(items).encode()).hexdigest()


def structure(model):
    names = [f"{layer.name}:{type(layer).__name__}" for layer in model.layers]
    return {
        "params": int(model.count_params()),
        "trainable": int(sum(np.prod(w.shape) for w in model.trainable_weights)),
        "non_trainable": int(sum(np.prod(w.shape) for w in model.non_trainable_weights)),
        "n_layers": len(model.layers), "n_weights": len(model.weights), "name": model.name,
        "layers_sha": sha(names), "named_layers_sha": sha([n for n in names if not AUTO_NAME.match(n.split(":")[0])]),
        "first_layers": names[:4], "last_layers": names[-4:],
        "input_shape": list(model.input_shape), "output_shape": list(model.output_shape),
        "weight_shapes_sha": sha([str(tuple(w.shape)) for w in model.weights]),
    }


def parity_weights(model):
    """Deterministic weights both sides can make: uniform in +-1/sqrt(fan in) for kernels, near 1 for
    scales and variances, small for biases and means; integer counters zero."""
    arrays = []
    for i, w in enumerate(model.weights):
        shape = tuple(w.shape)
        rs = np.random.RandomState(1000 + i)
        name = w.path.rsplit("/", 1)[-1]
        if "int" in str(w.dtype):
            arrays.append(np.zeros(shape, w.dtype))
        elif name in ("moving_variance", "variance", "gamma") and len(shape) <= 1:
            arrays.append(rs.uniform(0.5, 1.5, shape).astype("float32"))
        elif len(shape) <= 1:
            arrays.append(rs.uniform(-0.1, 0.1, shape).astype("float32"))
        else:
            fan_in = int(np.prod(shape[:-1]))
            arrays.append((rs.uniform(-1, 1, shape) * np.sqrt(3.0 / fan_in)).astype("float32"))
    return arrays


def weight_kinds(model):
    return [w.path.rsplit("/", 1)[-1] for w in model.weights]


def main(only=()):
    path = os.path.join(HERE, "keras_applications_oracle.json")
    out = {"structure": {}, "pooling": {}, "parity": {}}
    if only:
        with open(path) as f:
            out = json.load(f)
    for ctor, kwargs in STRUCTURE.items():
        if only and ctor not in only:
            continue
        keras.backend.clear_session()
        out["structure"][ctor] = structure(getattr(A, ctor)(weights=None, **kwargs))
        print(ctor, out["structure"][ctor]["params"], flush=True)
    for ctor in POOLING:
        if only and ctor not in only:
            continue
        shape = SMALL.get(ctor, (32, 32, 3))
        for pooling in (None, "avg", "max"):
            keras.backend.clear_session()
            m = getattr(A, ctor)(weights=None, include_top=False, input_shape=shape, pooling=pooling)
            last = m.layers[-1]
            out["pooling"][f"{ctor}:{pooling}"] = {"params": int(m.count_params()), "n_layers": len(m.layers),
                                                   "output_shape": list(m.output_shape),
                                                   "last": f"{last.name}:{type(last).__name__}"}
    for ctor, kwargs in PARITY.items():
        if only and ctor not in only:
            continue
        keras.backend.clear_session()
        kwargs = dict(kwargs)
        kwargs.setdefault("input_shape", SMALL.get(ctor, (32, 32, 3)))
        m = getattr(A, ctor)(weights=None, classes=10, classifier_activation=None, **kwargs)
        m.set_weights(parity_weights(m))
        x = np.random.RandomState(7).uniform(0, 255, (2,) + tuple(kwargs["input_shape"])).astype("float32")
        y = np.asarray(m(x, training=False))
        out["parity"][ctor] = {"kwargs": {k: list(v) if isinstance(v, tuple) else v for k, v in kwargs.items()},
                               "kinds": weight_kinds(m), "output": y.tolist()}
        print("parity", ctor, flush=True)
    out["preprocess"] = preprocess_answers()
    out["decode"] = decode_answers()
    out["errors"] = error_answers()
    out["tiny"] = tiny_files()
    with open(path, "w") as f:
        json.dump(out, f, indent=1)


def preprocess_answers():
    answers = {}
    base = np.arange(2 * 2 * 2 * 3, dtype="float32").reshape(2, 2, 2, 3) * 10.0
    for mode in ("caffe", "tf", "torch"):
        for fmt, x in (("channels_last", base), ("channels_first", base.transpose(0, 3, 1, 2)),
                       ("channels_last_3d", base[0])):
            data_format = fmt.replace("_3d", "")
            y_np = imagenet_utils.preprocess_input(x.copy(), data_format=data_format, mode=mode)
            y_tensor = np.asarray(imagenet_utils.preprocess_input(keras.ops.convert_to_tensor(x),
                                                                  data_format=data_format, mode=mode))
            answers[f"{mode}:{fmt}"] = {"numpy": y_np.tolist(), "tensor": y_tensor.tolist(),
                                        "dtype": str(y_np.dtype)}
        caller = base.copy()
        imagenet_utils.preprocess_input(caller, mode=mode)
        answers[f"{mode}:in_place"] = caller.tolist()
    ints = imagenet_utils.preprocess_input(np.full((1, 1, 1, 3), 255, "uint8"), mode="tf")
    answers["uint8_tf"] = {"values": ints.tolist(), "dtype": str(ints.dtype)}
    for family in ("mobilenet", "mobilenet_v2", "mobilenet_v3", "resnet", "resnet50", "resnet_v2", "vgg16", "vgg19",
                   "densenet", "xception", "inception_v3", "efficientnet", "convnext", "efficientnet_v2",
                   "inception_resnet_v2", "nasnet"):
        module = getattr(A, family)
        answers[f"module:{family}"] = np.asarray(module.preprocess_input(base[:1].copy())).tolist()
    return answers


def decode_answers():
    imagenet_utils.CLASS_INDEX = {str(i): [f"n{i:08d}", f"class_{i}"] for i in range(1000)}
    preds = np.random.RandomState(3).uniform(0, 1, (2, 1000)).astype("float32")
    preds[1, 10] = preds[1, 20] = 2.0  # a tie at the top
    decoded = imagenet_utils.decode_predictions(preds, top=3)
    return {"preds_seed": 3, "top3": [[[a, b, float(c)] for a, b, c in row] for row in decoded],
            "default_len": len(imagenet_utils.decode_predictions(preds)[0])}


def error_answers():
    answers = {}

    def record(key, call):
        try:
            call()
            answers[key] = None
        except Exception as e:  # noqa: BLE001 - recording whatever Keras raises
            answers[key] = [type(e).__name__, str(e)]

    record("mode", lambda: imagenet_utils.preprocess_input(np.zeros((1, 2, 2, 3), "float32"), mode="nope"))
    record("data_format", lambda: imagenet_utils.preprocess_input(np.zeros((1, 2, 2, 3), "float32"), data_format="x"))
    record("decode_shape", lambda: imagenet_utils.decode_predictions(np.zeros((2, 10))))
    record("weights", lambda: A.ResNet50(weights="/no/such/file.h5"))
    record("classes", lambda: A.ResNet50(weights="imagenet", classes=10))
    record("static_shape", lambda: A.ResNet50(weights=None, input_shape=(None, None, 3)))
    record("too_small", lambda: A.ResNet50(weights=None, include_top=False, input_shape=(16, 16, 3)))
    record("not_three", lambda: A.ResNet50(weights=None, include_top=False, input_shape=(32, 32)))
    record("imagenet_shape", lambda: A.ResNet50(weights="imagenet", input_shape=(200, 200, 3)))
    record("activation", lambda: A.ResNet50(weights="imagenet", classifier_activation="relu"))
    record("alpha_v2", lambda: A.MobileNetV2(weights="imagenet", alpha=0.3))
    return answers


def tiny_model():
    inputs = keras.Input((8, 8, 3), name="image")
    x = keras.layers.Conv2D(4, 3, padding="same", name="conv")(inputs)
    x = keras.layers.BatchNormalization(name="bn")(x)
    x = keras.layers.DepthwiseConv2D(3, padding="same", name="dw")(x)
    x = keras.Sequential([keras.layers.Conv2D(6, 1, name="inner_conv"), keras.layers.LayerNormalization(name="ln")],
                         name="block")(x)
    x = keras.layers.GlobalAveragePooling2D(name="gap")(x)
    return keras.Model(inputs, keras.layers.Dense(5, name="predictions")(x), name="tiny")


def tiny_files():
    import h5py
    keras.backend.clear_session()
    model = tiny_model()
    rs = np.random.RandomState(11)
    model.set_weights([rs.uniform(0.5, 1.5, w.shape).astype("float32") for w in model.weights])
    model.save_weights(os.path.join(HERE, "data", "tiny.weights.h5"))
    with h5py.File(os.path.join(HERE, "data", "tiny_legacy.h5"), "w") as f:
        legacy_h5_format.save_weights_to_hdf5_group(f, model)
    x = np.random.RandomState(12).uniform(-1, 1, (2, 8, 8, 3)).astype("float32")
    return {"output": np.asarray(model(x, training=False)).tolist()}


if __name__ == "__main__":
    main(tuple(sys.argv[1:]))
