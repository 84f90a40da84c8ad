"""SavedModels the serving tests serve, written with eagerflow and with weights known to the tests, so
every answer is checked against NumPy."""
import numpy as np

import eagerflow as tf

W = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], np.float32)
B = np.array([0.5, -0.5, 2.0], np.float32)


def affine_expected(x, scale=1.0):
    return (np.asarray(x, np.float32) @ W + B) * np.float32(scale)


class Affine(tf.Module):
    """x [batch, 2] float -> y [batch, 3] = (x @ W + b) * scale; `scale` tells versions apart."""

    def __init__(self, scale):
        super().__init__()
        self.w = tf.Variable(W)
        self.b = tf.Variable(B)
        self.scale = tf.Variable(np.float32(scale))

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def predict(self, x):
        return {"y": (tf.matmul(x, self.w) + self.b) * self.scale}


class Multi(tf.Module):
    """Several typed inputs and outputs: x float [batch, 2], n int32 [batch], tag string [batch]."""

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x"),
                                  tf.TensorSpec([None], tf.int32, name="n"),
                                  tf.TensorSpec([None], tf.string, name="tag")])
    def predict(self, x, n, tag):
        return {"total": tf.reduce_sum(x, axis=1) * tf.cast(n, tf.float32),
                "length": tf.strings.length(tag),
                "echo_bytes": tag}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="inputs")])
    def classify(self, inputs):
        features = tf.io.parse_example(inputs, {"x": tf.io.FixedLenFeature([2], tf.float32)})
        x = features["x"]
        scores = tf.nn.softmax(x, axis=1)
        classes = tf.broadcast_to(tf.constant([["neg", "pos"]]), tf.shape(scores))
        return {"classes": classes, "scores": scores}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="inputs")])
    def regress(self, inputs):
        features = tf.io.parse_example(inputs, {"x": tf.io.FixedLenFeature([2], tf.float32),
                                                "k": tf.io.FixedLenFeature([1], tf.int64)})
        k = tf.cast(features["k"][:, 0], tf.float32)
        return {"outputs": tf.reduce_sum(features["x"], axis=1) * k}


def save_affine(folder, scale):
    module = Affine(scale)
    tf.saved_model.save(module, str(folder), signatures={"serving_default": module.predict})


def save_multi(folder):
    module = Multi()
    tf.saved_model.save(module, str(folder), signatures={
        "serving_default": module.predict, "classify_x": module.classify, "regress_x": module.regress})


class Bfloat16(tf.Module):
    """bfloat16 in and out (serving_default: y = 2 * x) and out only (to_bfloat16: a float32 x cast)."""

    @tf.function(input_signature=[tf.TensorSpec([None], tf.bfloat16, name="x")])
    def double(self, x):
        return {"y": x * tf.constant(2, tf.bfloat16)}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x")])
    def to_bfloat16(self, x):
        return {"y": tf.cast(x, tf.bfloat16)}


def save_bfloat16(folder):
    module = Bfloat16()
    tf.saved_model.save(module, str(folder), signatures={"serving_default": module.double,
                                                         "to_bfloat16": module.to_bfloat16})


class Images(tf.Module):
    """Images [batch, 3, 4, 1] -> their pixels weighted by position (`weighted`, same shape) and the sum
    of each image (`total`): every pixel's place in the nested JSON rows matters."""
    WEIGHTS = np.arange(12, dtype=np.float32).reshape(3, 4, 1) + 1

    @tf.function(input_signature=[tf.TensorSpec([None, 3, 4, 1], tf.float32, name="images")])
    def predict(self, images):
        weighted = images * tf.constant(self.WEIGHTS)
        return {"weighted": weighted, "total": tf.reduce_sum(weighted, axis=[1, 2, 3])}


def save_images(folder):
    module = Images()
    tf.saved_model.save(module, str(folder), signatures={"serving_default": module.predict})
