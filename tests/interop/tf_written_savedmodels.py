"""The script real TensorFlow 2.21 runs for the differential suite (test_tf_savedmodel_parity.py): it writes
each SavedModel under models/NAME, loads it back in TensorFlow, calls every signature (and the restored
tf.functions named in CALLS) on fixed random inputs, and stores inputs and outputs in io/NAME.npz (strings
as UTF-8 byte arrays in JSON, since npz holds no Python objects without pickle). Its last line is the
manifest: {model: {call: {"inputs": [...], "outputs": [...]}}} naming what each stored array is.

One process writes them all, so TensorFlow's start-up is paid once: SCRIPT is this file's part (helpers,
Keras models) followed by tf_written_modules.py's (tf.Modules, then variables and gradients)."""

KERAS_MODELS = r'''
import json, os
import numpy as np
import tensorflow as tf
import keras
from keras import layers

tf.random.set_seed(0)
keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)
os.makedirs("models", exist_ok=True)
os.makedirs("io", exist_ok=True)
MANIFEST = {}


def floats(*shape):
    return rng.normal(size=shape).astype(np.float32)


def ints(high, *shape, dtype=np.int32):
    return rng.integers(0, high, size=shape).astype(dtype)


def record(name, calls):
    """calls: {call name: (callable, {input name: array})}; the callable takes keyword tensors."""
    arrays, strings, entry = {}, {}, {}
    for call, (fn, inputs) in calls.items():
        out = fn(**{k: tf.constant(v) for k, v in inputs.items()})
        if not isinstance(out, dict):
            out = {"output": out} if not isinstance(out, (list, tuple)) else {f"output_{i}": o for i, o in enumerate(out)}
        entry[call] = {"inputs": sorted(inputs), "outputs": sorted(out)}
        for group, values in (("in", inputs), ("out", out)):
            for k, v in values.items():
                v = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
                key = f"{call}/{group}/{k}"
                if v.dtype.kind in "OSU":
                    strings[key] = [v.shape, [x if isinstance(x, bytes) else str(x).encode() for x in v.ravel()]]
                else:
                    arrays[key] = v
    np.savez(f"io/{name}.npz", **arrays)
    with open(f"io/{name}.strings.json", "w") as f:
        json.dump({k: [list(s), [x.decode("latin-1") for x in xs]] for k, (s, xs) in strings.items()}, f)
    MANIFEST[name] = entry


def signatures_of(name, inputs_by_signature, extra=None):
    loaded = tf.saved_model.load(f"models/{name}")
    calls = {}
    for k, v in inputs_by_signature.items():
        fn = loaded.signatures[k]
        if not isinstance(v, dict):  # the one input, under the name the signature gives it
            v = {next(iter(fn.structured_input_signature[1])): v}
        calls[f"signature:{k}"] = (fn, v)
    for call, (attr, inputs) in (extra or {}).items():
        fn = getattr(loaded, attr)
        calls[call] = ((lambda fn, order: lambda **kw: fn(*[kw[k] for k in order]))(fn, list(inputs)), inputs)
    record(name, calls)


def keras_export(name, model, inputs):
    model.export(f"models/{name}", verbose=False)
    signatures_of(name, {"serving_default": inputs, "serve": inputs})


def sequential(input_shape, *stack, dtype="float32"):
    return keras.Sequential([keras.Input(input_shape, dtype=dtype), *stack])


# --- Keras 3 model.export ---
keras_export("mlp", sequential((8,), layers.Dense(16, activation="relu"), layers.Dense(4, activation="softmax")),
             floats(5, 8))
keras_export("cnn", sequential(
    (12, 12, 3), layers.Conv2D(8, 3, padding="same", activation="relu"), layers.BatchNormalization(),
    layers.MaxPooling2D(2), layers.Conv2D(4, 3, strides=2, activation="relu"), layers.AveragePooling2D(2, padding="same"),
    layers.Dropout(0.5), layers.Flatten(), layers.Dense(5)), floats(3, 12, 12, 3))
keras_export("separable", sequential(
    (10, 10, 4), layers.SeparableConv2D(6, 3, padding="same", activation="relu"),
    layers.DepthwiseConv2D(3, depth_multiplier=2), layers.BatchNormalization(), layers.GlobalAveragePooling2D(),
    layers.Dense(3)), floats(2, 10, 10, 4))
keras_export("lstm_text", sequential((7,), layers.Embedding(20, 6), layers.LSTM(5), layers.Dense(2), dtype="int32"),
             ints(20, 3, 7))
keras_export("gru_text", sequential(
    (6,), layers.Embedding(15, 4), layers.GRU(5, return_sequences=True), layers.GlobalMaxPooling1D(), dtype="int32"),
    ints(15, 4, 6))
keras_export("bidirectional", sequential(
    (5,), layers.Embedding(12, 4), layers.Bidirectional(layers.LSTM(3, return_sequences=True)),
    layers.Bidirectional(layers.GRU(2)), dtype="int32"), ints(12, 2, 5))
keras_export("conv1d", sequential(
    (16, 3), layers.Conv1D(4, 3, activation="tanh"), layers.MaxPooling1D(2), layers.Conv1D(4, 2, dilation_rate=2),
    layers.GlobalAveragePooling1D()), floats(2, 16, 3))
keras_export("conv_transpose", sequential(
    (5, 5, 2), layers.Conv2DTranspose(3, 3, strides=2, padding="same"), layers.UpSampling2D(),
    layers.Conv2DTranspose(2, 2, padding="valid", activation="sigmoid")), floats(2, 5, 5, 2))
keras_export("activations", sequential(
    (6,), layers.Dense(6, activation="gelu"), layers.LeakyReLU(0.2), layers.Dense(6, activation="elu"),
    layers.Dense(6, activation="selu"), layers.Dense(6, activation="swish"), layers.Dense(6, activation="softplus"),
    layers.ReLU(max_value=6.0), layers.Dense(6, activation="hard_sigmoid"), layers.LayerNormalization(),
    layers.Dense(3, activation="log_softmax")), floats(4, 6))
keras_export("embedding_flat", sequential(
    (4,), layers.Embedding(9, 3), layers.Flatten(), layers.Dense(2, activation="tanh"), dtype="int32"),
    ints(9, 3, 4))
keras_export("resize", sequential(
    (6, 6, 2), layers.Resizing(9, 4), layers.Rescaling(1 / 255.0, offset=-0.5), layers.ZeroPadding2D(1),
    layers.Cropping2D(((1, 0), (0, 1)))), floats(2, 6, 6, 2) * 100)

tokens = keras.Input((6,), dtype="int32", name="tokens")
h = layers.Embedding(30, 8)(tokens)
att = layers.MultiHeadAttention(num_heads=2, key_dim=4)(h, h)
h = layers.LayerNormalization()(h + att)
ff = layers.Dense(8)(layers.Dense(16, activation="gelu")(h))
h = layers.LayerNormalization()(h + ff)
keras_export("transformer", keras.Model(tokens, layers.Dense(3)(layers.GlobalAveragePooling1D()(h))),
             {"tokens": ints(30, 2, 6)})

query, value = keras.Input((4, 5), name="query"), keras.Input((3, 5), name="value")
attended = layers.Attention(use_scale=True)([query, value])
additive = layers.AdditiveAttention()([query, value])
keras_export("attention", keras.Model([query, value], layers.Concatenate()([attended, additive])),
             {"query": floats(2, 4, 5), "value": floats(2, 3, 5)})

features = keras.Input((5,), name="features")
trunk = layers.Dense(8, activation="relu")(features)
keras_export("dict_outputs", keras.Model(features, {"score": layers.Dense(1, activation="sigmoid")(trunk),
                                                    "classes": layers.Dense(3, activation="softmax")(trunk)}),
             {"features": floats(4, 5)})

# --- Keras preprocessing, exported with string inputs ---
norm = layers.Normalization()
norm.adapt(floats(50, 3) * 3 + 1)
lookup = layers.StringLookup(vocabulary=["red", "green", "blue"], num_oov_indices=1)
vectorize = layers.TextVectorization(max_tokens=20, output_sequence_length=5)
vectorize.adapt(["the cat sat", "the dog ran far", "a cat and a dog", "The Cat!"])
num_in = keras.Input((3,), name="numbers")
color_in = keras.Input((1,), dtype="string", name="color")
text_in = keras.Input((1,), dtype="string", name="text")
keras_export("preprocessing", keras.Model([num_in, color_in, text_in],
                                          {"numbers": norm(num_in), "color": lookup(color_in),
                                           "text": vectorize(text_in)}),
             {"numbers": floats(3, 3), "color": np.array([["green"], ["purple"], ["red"]]),
              "text": np.array([["the cat ran"], ["A DOG, and a bird"], [""]])})


'''

from .tf_written_modules import MODULES  # noqa: E402

SCRIPT = KERAS_MODELS + MODULES
