"""The models both sides of tests/interop/test_keras_files*.py build: one source, run by Keras 3 (with
`keras` bound to Keras) and by eagerflow (with `keras` bound to eagerflow.keras), so both build the
same architecture. `build(name)` returns (model, inputs, targets), the inputs fixed arrays;
`predictions(model, x)` the inference outputs as {name: array}."""

MODEL_NAMES = ["mlp", "cnn", "text", "two_io", "subclassed"]

SOURCE = '''
import numpy as np


def _data(shape, seed, kind="float"):
    rng = np.random.default_rng(seed)
    if kind == "int":
        return rng.integers(1, 20, size=shape).astype("int32")
    return rng.random(shape).astype("float32")


@keras.saving.register_keras_serializable(package="interop")
class Residual(keras.Model):
    """A registered subclassed model: attributes, a list of blocks, a normalization."""

    def __init__(self, units=4, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.first = keras.layers.Dense(units, activation="relu")
        self.blocks = [keras.layers.Dense(units, activation="tanh"), keras.layers.Dense(units)]
        self.norm = keras.layers.BatchNormalization()
        self.head = keras.layers.Dense(2)

    def call(self, x, training=False):
        h = self.first(x)
        for block in self.blocks:
            h = h + block(h)
        return self.head(self.norm(h, training=training))

    def get_config(self):
        return {**super().get_config(), "units": self.units}


def build(name):
    layers = keras.layers
    if name == "mlp":
        model = keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="relu"), layers.Dropout(0.2),
                                  layers.BatchNormalization(), layers.Dense(3, activation="softmax")])
        x, y = _data((8, 6), 1), np.eye(3, dtype="float32")[np.arange(8) % 3]
        loss = "categorical_crossentropy"
    elif name == "cnn":
        inputs = keras.Input((8, 8, 2))
        h = layers.Conv2D(4, 3, activation="relu")(inputs)
        h = layers.BatchNormalization()(h)
        h = layers.Dropout(0.1)(h)
        h = layers.Conv2D(3, 3, padding="same")(h)
        h = layers.Flatten()(h)
        model = keras.Model(inputs, layers.Dense(2)(h))
        x, y, loss = _data((6, 8, 8, 2), 2), _data((6, 2), 3), "mse"
    elif name == "text":
        inputs = keras.Input((7,), dtype="int32")
        h = layers.Embedding(20, 6)(inputs)
        h = layers.LSTM(5, return_sequences=True)(h)
        h = layers.GRU(4, return_sequences=True)(h)
        h = layers.MultiHeadAttention(num_heads=2, key_dim=3)(h, h)
        h = layers.GlobalAveragePooling1D()(h)
        model = keras.Model(inputs, layers.Dense(1, activation="sigmoid")(h))
        x, y, loss = _data((6, 7), 4, "int"), (np.arange(6) % 2).astype("float32")[:, None], "binary_crossentropy"
    elif name == "two_io":
        a, b = keras.Input((4,), name="a"), keras.Input((3,), name="b")
        shared = layers.Dense(5, activation="relu", name="shared")
        h = layers.Concatenate()([shared(layers.Dense(5)(a)), layers.Dense(5)(b)])
        model = keras.Model({"a": a, "b": b}, {"score": layers.Dense(1, name="score")(h),
                                               "probs": layers.Dense(3, activation="softmax", name="probs")(h)})
        x = {"a": _data((6, 4), 5), "b": _data((6, 3), 6)}
        y = {"score": _data((6, 1), 7), "probs": np.eye(3, dtype="float32")[np.arange(6) % 3]}
        loss = {"score": "mse", "probs": "categorical_crossentropy"}
    elif name == "subclassed":
        model = Residual(4)
        x, y, loss = _data((8, 5), 8), _data((8, 2), 9), "mse"
        model(x[:1])
    else:
        raise KeyError(name)
    model.compile(keras.optimizers.Adam(0.01), loss)
    return model, x, y


def predictions(model, x):
    """The model's inference outputs as {name: array} (a single output is "output")."""
    out = model.predict(x, verbose=0)
    if isinstance(out, dict):
        return {k: np.asarray(v) for k, v in out.items()}
    if isinstance(out, (list, tuple)):
        return {str(i): np.asarray(v) for i, v in enumerate(out)}
    return {"output": np.asarray(out)}
'''


def namespace(keras):
    """The SOURCE's functions with `keras` bound to the given Keras (Keras 3, or eagerflow.keras)."""
    scope = {"keras": keras}
    exec(compile(SOURCE, "keras_file_models", "exec"), scope)  # noqa: S102 - our own source, above
    return scope

