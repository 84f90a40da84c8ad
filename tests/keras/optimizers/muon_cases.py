"""The Muon runs compared with Keras 3.15 (test_muon.py reads, make_muon_oracle.py writes
muon_keras_3_15.json by running the same code on TensorFlow 2.21's Keras). Plain Python and NumPy
over whichever `keras`/`tf` pair it is given.

Five weights cover both rules: a 3x4 kernel and a 2x5 (Muon, wide), a 6x3 (Muon through its tall
orientation, or AdamW when excluded by name), a bias (AdamW: not 2-D) and an embedding table
(AdamW while exclude_embeddings). Gradients are fixed functions of the step."""
import numpy as np

SHAPES = {"dense": [("kernel", (3, 4)), ("bias", (4,))], "token_embedding": [("embeddings", (5, 2))],
          "tall": [("kernel", (6, 3))], "wide": [("kernel", (2, 5))]}

# name: (Muon arguments, steps)
RUNS = {
    "default": ({"learning_rate": 0.01}, 3),
    "options": ({"learning_rate": 0.01, "nesterov": False, "rms_rate": None, "weight_decay": None,
                 "adam_weight_decay": None, "momentum": 0.9, "ns_steps": 3, "exclude_layers": ["tall"],
                 "exclude_embeddings": False, "adam_lr_ratio": 0.5, "adam_beta_1": 0.8, "adam_beta_2": 0.95,
                 "epsilon": 1e-5}, 3),
    "decay_and_clipping": ({"learning_rate": 0.05, "weight_decay": 0.1, "adam_weight_decay": 0.2, "clipnorm": 1.0}, 2),
}


def run(keras, tf, arguments, steps):
    """{weight path: values after `steps` updates}, and the optimizer's variable paths less its name."""
    class Holder(keras.layers.Layer):
        def __init__(self, shapes, **kwargs):
            super().__init__(**kwargs)
            self._shapes = shapes

        def build(self, _):
            for name, shape in self._shapes:
                setattr(self, name, self.add_weight(shape=shape, initializer="zeros", name=name))

    rng = np.random.default_rng(0)
    weights = []
    for layer_name, shapes in SHAPES.items():
        layer = Holder(shapes, name=layer_name)
        layer.build(None)
        for name, _ in shapes:
            w = getattr(layer, name)
            w.assign(rng.standard_normal(tuple(w.shape)).astype(np.float32))
            weights.append(w)
    opt = keras.optimizers.Muon(**arguments)
    for step in range(steps):
        grads = [tf.constant((np.sin(np.arange(np.prod(w.shape)).reshape(tuple(w.shape)) * (step + 1.3))
                              + 0.1 * step).astype(np.float32)) for w in weights]
        opt.apply_gradients(zip(grads, weights))
    values = {w.path: np.asarray(w.numpy()).tolist() for w in weights}
    return values, [v.path.split("/", 1)[1] for v in opt.variables]
