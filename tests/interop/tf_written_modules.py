"""The second part of the differential suite's TensorFlow script (tf_written_savedmodels.py has the first,
with the helpers `floats`, `ints`, `signatures_of` it uses): tf.Modules saved with tf.saved_model.save, a
Keras model with control flow, then the loaded variables and gradients TensorFlow reports."""

MODULES = r'''
# --- tf.Modules saved with tf.saved_model.save ---
class Affine(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(floats(3, 2), name="w")
        self.b = tf.Variable(floats(2), name="b")
        self.steps = tf.Variable(0, trainable=False, name="steps")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def __call__(self, x):
        return tf.nn.sigmoid(x @ self.w + self.b)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x"),
                                  tf.TensorSpec([None, 2], tf.float32, name="y")])
    def loss(self, x, y):
        return tf.reduce_mean(tf.square(self(x) - y))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="v")])
    def stats(self, v):
        return {"mean": tf.reduce_mean(v), "max": tf.reduce_max(v), "count": tf.size(v),
                "steps": self.steps + 0}


affine = Affine()
tf.saved_model.save(affine, "models/module_signatures", signatures={
    "serving_default": affine.__call__, "loss": affine.loss, "stats": affine.stats})
signatures_of("module_signatures", {"serving_default": {"x": floats(4, 3)},
                                    "loss": {"x": floats(4, 3), "y": floats(4, 2)}, "stats": {"v": floats(7)}},
              {"call:__call__": ("__call__", {"x": floats(2, 3)}),
               "call:loss": ("loss", {"x": floats(3, 3), "y": floats(3, 2)})})


class ControlFlow(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(1.5)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x"), tf.TensorSpec([], tf.int32, name="n")])
    def run(self, x, n):
        y = tf.cond(tf.reduce_sum(x) > 0, lambda: x * self.scale, lambda: tf.abs(x) - 1.0)
        i, acc = tf.while_loop(lambda i, acc: i < n, lambda i, acc: (i + 1, acc * 0.5 + y), (tf.constant(0), y))
        ta = tf.TensorArray(tf.float32, size=n)
        ta = tf.while_loop(lambda k, ta: k < n, lambda k, ta: (k + 1, ta.write(k, acc * tf.cast(k, tf.float32))),
                           (0, ta))[1]
        branch = tf.switch_case(n % 3, [lambda: acc + 1.0, lambda: acc * 2.0, lambda: -acc])
        return {"acc": acc, "steps": i, "stacked": ta.stack(), "branch": branch}


flow = ControlFlow()
tf.saved_model.save(flow, "models/control_flow", signatures={"serving_default": flow.run})
signatures_of("control_flow", {"serving_default": {"x": floats(4), "n": np.int32(3)}},
              {"call:negative": ("run", {"x": -np.abs(floats(4)), "n": np.int32(4)}),
               "call:one": ("run", {"x": floats(3), "n": np.int32(1)})})


class Strings(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="words")])
    def serve(self, words):
        upper = tf.strings.upper(words)
        return {"upper": upper, "length": tf.strings.length(words),
                "joined": tf.strings.join([words, upper], separator="-"),
                "replaced": tf.strings.regex_replace(words, "[aeiou]", "_"),
                "prefix": tf.strings.substr(words, 0, 2), "hashed": tf.strings.to_hash_bucket_fast(words, 7),
                "number": tf.strings.as_string(tf.strings.length(words) * 10),
                "matches": tf.strings.regex_full_match(words, "c.*")}


strings = Strings()
tf.saved_model.save(strings, "models/strings", signatures={"serving_default": strings.serve})
signatures_of("strings", {"serving_default": {"words": np.array([b"cat", b"", b"Zebra", b"coconut"])}})


class Table(tf.Module):
    def __init__(self):
        super().__init__()
        self.table = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(tf.constant(["a", "b", "c"]), tf.constant([10, 20, 30], tf.int64)),
            default_value=-1)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="keys")])
    def lookup(self, keys):
        return {"ids": self.table.lookup(keys), "size": self.table.size()}


table = Table()
tf.saved_model.save(table, "models/hash_table", signatures={"serving_default": table.lookup})
signatures_of("hash_table", {"serving_default": {"keys": np.array([b"b", b"z", b"a", b"c"])}})


class Ranking(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None, 6], tf.float32, name="scores")])
    def serve(self, scores):
        top = tf.math.top_k(scores, k=3)
        return {"argmax": tf.argmax(scores, axis=1), "argmin": tf.argmin(scores, axis=1, output_type=tf.int32),
                "top_values": top.values, "top_indices": top.indices, "sorted": tf.sort(scores, direction="DESCENDING"),
                "order": tf.argsort(scores), "positive": tf.math.count_nonzero(scores > 0, axis=1),
                "rounded": tf.cast(tf.round(scores * 4), tf.int64)}


ranking = Ranking()
tf.saved_model.save(ranking, "models/ranking", signatures={"serving_default": ranking.serve})
signatures_of("ranking", {"serving_default": {"scores": floats(3, 6)}})


class TensorOps(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x"),
                                  tf.TensorSpec([None], tf.int32, name="ids")])
    def serve(self, x, ids):
        gathered = tf.gather(x, ids % tf.shape(x)[0])
        segments = tf.math.unsorted_segment_sum(gathered, ids % 3, num_segments=3)
        mixed = tf.einsum("ij,kj->ik", x, gathered)
        padded = tf.pad(x, [[1, 0], [0, 2]], constant_values=0.5)
        return {"gathered": gathered, "segments": segments, "mixed": mixed, "padded": padded,
                "one_hot": tf.one_hot(ids % 4, 4), "where": tf.where(x > 0, x, -x * 0.1),
                "cumsum": tf.cumsum(x, axis=1, reverse=True), "tiled": tf.tile(x[:, :2], [2, 1]),
                "reversed": tf.reverse(x, axis=[1]), "clipped": tf.clip_by_value(x, -0.5, 0.5),
                "batched": tf.linalg.matmul(tf.reshape(x, [-1, 2, 2]), tf.reshape(x, [-1, 2, 2]), transpose_b=True),
                "split": tf.concat(tf.split(x, 2, axis=1)[::-1], axis=0), "squared": tf.math.squared_difference(x, 1.0),
                "norm": tf.linalg.l2_normalize(x, axis=1), "expanded": tf.expand_dims(tf.reduce_prod(x, 1), -1),
                "stacked": tf.stack([tf.reduce_min(x, 0), tf.reduce_max(x, 0)]), "range": tf.range(tf.size(ids)) * 2,
                "filled": tf.fill(tf.shape(ids), 7.0), "any": tf.reduce_any(x > 1.0, axis=1),
                "log_sum_exp": tf.reduce_logsumexp(x, axis=1), "floordiv": ids // 2, "mod": tf.math.floormod(ids, 3)}


tensor_ops = TensorOps()
tf.saved_model.save(tensor_ops, "models/tensor_ops", signatures={"serving_default": tensor_ops.serve})
signatures_of("tensor_ops", {"serving_default": {"x": floats(5, 4), "ids": ints(9, 6)}})


class ImageOps(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None, 8, 8, 3], tf.float32, name="images")])
    def serve(self, images):
        return {"bilinear": tf.image.resize(images, [5, 11]),
                "nearest": tf.image.resize(images, [16, 4], method="nearest"),
                "pooled": tf.nn.avg_pool2d(images, 2, 2, "VALID"), "max": tf.nn.max_pool2d(images, 3, 1, "SAME"),
                "gray": tf.image.rgb_to_grayscale(images), "flipped": tf.image.flip_left_right(images),
                "crop": tf.image.central_crop(images, 0.5), "space": tf.nn.space_to_depth(images[:, :, :, :2], 2)}


image_ops = ImageOps()
tf.saved_model.save(image_ops, "models/image_ops", signatures={"serving_default": image_ops.serve})
signatures_of("image_ops", {"serving_default": {"images": floats(2, 8, 8, 3)}})


class CustomGradient(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(floats(3), name="v")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def serve(self, x):
        @tf.custom_gradient
        def clipped(t):
            return tf.identity(t) * 2.0, lambda dy: tf.clip_by_value(dy, -1.0, 1.0)
        return {"y": clipped(x * self.v), "pair": tf.identity_n([x, x * 3.0])[1]}


custom = CustomGradient()
tf.saved_model.save(custom, "models/identity_n", signatures={"serving_default": custom.serve})
signatures_of("identity_n", {"serving_default": {"x": floats(2, 3)}})


class Traced(tf.Module):
    """A tf.function without an input signature: its traces are the restored function's concrete functions."""

    def __init__(self):
        super().__init__()
        self.k = tf.Variable(2.0)

    @tf.function
    def scale(self, x, times=2):
        return x * self.k * times


traced = Traced()
traced.scale(tf.constant([1.0, 2.0]))
traced.scale(tf.constant([[1.0], [2.0], [3.0]]))
tf.saved_model.save(traced, "models/traced")
signatures_of("traced", {}, {"call:vector": ("scale", {"x": floats(2)}),
                             "call:matrix": ("scale", {"x": floats(3, 1)})})

# A Keras model saved with tf.saved_model.save (not export)
saved_keras = sequential((4,), layers.Dense(3, activation="relu"), layers.Dense(2))
saved_keras(floats(1, 4))
serve_fn = tf.function(lambda x: saved_keras(x, training=False),
                       input_signature=[tf.TensorSpec([None, 4], tf.float32, name="inputs")])
tf.saved_model.save(saved_keras, "models/keras_saved_model", signatures={"serving_default": serve_fn})
signatures_of("keras_saved_model", {"serving_default": {"inputs": floats(3, 4)}})

# A model with tf.cond and tf.while_loop in its call, exported from Keras
class Looping(layers.Layer):
    def build(self, shape):
        self.w = self.add_weight(shape=(shape[-1], shape[-1]), initializer="orthogonal")

    def call(self, x):
        x = tf.cond(tf.reduce_mean(x) > 0, lambda: x, lambda: -x)
        return tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.tanh(h @ self.w)), (0, x))[1]


keras_export("keras_control_flow", sequential((4,), Looping(), layers.Dense(2)), floats(3, 4))

keras_export("rnn_variants", sequential(
    (6, 3), layers.SimpleRNN(4, return_sequences=True), layers.GRU(3, reset_after=False, return_sequences=True),
    layers.LSTM(2, go_backwards=True), layers.Dense(2)), floats(2, 6, 3))

ids_in = keras.Input((3,), dtype="int64", name="ids")
words_in = keras.Input((2,), dtype="string", name="words")
reals_in = keras.Input((2,), name="reals")
keras_export("keras_lookups", keras.Model([ids_in, words_in, reals_in], {
    "ids": layers.IntegerLookup(vocabulary=[3, 7, 11], output_mode="one_hot")(ids_in),
    "hashed": layers.Hashing(num_bins=5)(words_in),
    "counts": layers.CategoryEncoding(num_tokens=12, output_mode="count")(ids_in),
    "buckets": layers.Discretization(bin_boundaries=[-0.5, 0.0, 0.5])(reals_in)}),
    {"ids": np.array([[3, 5, 11], [7, 7, 0]], np.int64), "words": np.array([["ab", "cd"], ["", "ab"]]),
     "reals": floats(2, 2)})


class MathOps(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
    def serve(self, x):
        mean, variance = tf.nn.moments(x, axes=[0])
        positive = tf.abs(x) + 0.5
        return {"erf": tf.math.erf(x), "log1p": tf.math.log1p(positive), "rsqrt": tf.math.rsqrt(positive),
                "pow": tf.pow(positive, 1.5), "atan2": tf.math.atan2(x, positive), "softmax0": tf.nn.softmax(x, axis=0),
                "normalized": tf.nn.batch_normalization(x, mean, variance, 0.1, 2.0, 1e-3),
                "band": tf.linalg.band_part(tf.reshape(x[:2], [2, 2, 2]), 0, -1), "trace": tf.linalg.trace(x[:, :2, None] * x[:, None, :2]),
                "gather_nd": tf.gather_nd(x, [[0, 1], [1, 3]]), "scatter": tf.scatter_nd([[1], [3]], x[:2], [5, 4]),
                "masked": tf.reduce_sum(tf.boolean_mask(x, x[:, 0] > 0)), "unique": tf.size(tf.unique(tf.reshape(tf.round(x), [-1]))[0]),
                "sign": tf.sign(x), "floor": tf.floor(x * 3), "minimum": tf.minimum(x, 0.2), "sigmoid": tf.sigmoid(x),
                "segment_max": tf.math.segment_max(x, [0, 0, 1, 1, 2][:5]), "leaky": tf.nn.leaky_relu(x, 0.3),
                "relu6": tf.nn.relu6(x * 10), "selu": tf.nn.selu(x), "softsign": tf.nn.softsign(x),
                "cumprod": tf.math.cumprod(x, axis=1, exclusive=True), "is_nan": tf.math.is_nan(tf.math.log(x))}


math_ops = MathOps()
tf.saved_model.save(math_ops, "models/math_ops", signatures={"serving_default": math_ops.serve})
signatures_of("math_ops", {"serving_default": {"x": floats(5, 4)}})


class MoreStrings(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="lines")])
    def serve(self, lines):
        words = tf.strings.split(lines)
        return {"words": words.to_tensor(default_value="<pad>"), "count": words.row_lengths(),
                "numbers": tf.strings.to_number(tf.strings.regex_replace(lines, "[^0-9]", ""), tf.int32),
                "reduced": tf.strings.reduce_join(lines, separator="|"), "lower": tf.strings.lower(lines),
                "stripped": tf.strings.strip(lines), "bytes": tf.strings.length(lines, unit="UTF8_CHAR"),
                "formatted": tf.strings.format("{} lines", tf.size(lines))}


more_strings = MoreStrings()
tf.saved_model.save(more_strings, "models/more_strings", signatures={"serving_default": more_strings.serve})
signatures_of("more_strings", {"serving_default": {"lines": np.array([b" 12 apples ", b"x9 y", "caf\u00e9 7".encode()])}})


class Compiled(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(floats(4, 4), name="w")

    @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
    def serve(self, x):
        return tf.nn.relu(tf.matmul(x, self.w)) + tf.reduce_mean(x)


compiled = Compiled()
tf.saved_model.save(compiled, "models/jit_compiled", signatures={"serving_default": compiled.serve})
signatures_of("jit_compiled", {"serving_default": {"x": floats(3, 4)}}, {"call:serve": ("serve", {"x": floats(2, 4)})})

class FusedNorm(tf.Module):
    """tf.keras 2's BatchNormalization op (FusedBatchNormV3), inference and training mode."""

    def __init__(self):
        super().__init__()
        self.gamma, self.beta = tf.Variable(floats(3) + 1, name="gamma"), tf.Variable(floats(3), name="beta")
        self.mean, self.var = tf.Variable(floats(3), name="mean"), tf.Variable(np.abs(floats(3)) + 0.5, name="var")

    @tf.function(input_signature=[tf.TensorSpec([None, 4, 4, 3], tf.float32, name="x")])
    def serve(self, x):
        y, _, _ = tf.compat.v1.nn.fused_batch_norm(x, self.gamma, self.beta, self.mean, self.var, epsilon=1e-3,
                                                   is_training=False)
        t, batch_mean, batch_var = tf.compat.v1.nn.fused_batch_norm(x, self.gamma, self.beta, epsilon=1e-3)
        return {"inference": y, "training": t, "batch_mean": batch_mean, "batch_var": batch_var}


fused = FusedNorm()
tf.saved_model.save(fused, "models/fused_batch_norm", signatures={"serving_default": fused.serve})
signatures_of("fused_batch_norm", {"serving_default": {"x": floats(2, 4, 4, 3)}})


class TrainStep(tf.Module):
    """A saved function that takes its own gradient and updates the variables (gradient ops in the file)."""

    def __init__(self):
        super().__init__()
        self.w1, self.w2 = tf.Variable(floats(3, 4) * 0.5, name="w1"), tf.Variable(floats(4, 1) * 0.5, name="w2")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x"),
                                  tf.TensorSpec([None, 1], tf.float32, name="y")])
    def train(self, x, y):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(x @ self.w1)
            h = tf.tanh(h) + tf.sigmoid(h) + tf.nn.softplus(h) + tf.nn.elu(h)
            loss = tf.reduce_mean(tf.square(h @ self.w2 - y))
        g1, g2 = tape.gradient(loss, [self.w1, self.w2])
        self.w1.assign_sub(0.1 * g1)
        self.w2.assign_sub(0.1 * g2)
        return {"loss": loss, "w1": tf.identity(self.w1), "w2": tf.identity(self.w2)}


train_step = TrainStep()
tf.saved_model.save(train_step, "models/train_step", signatures={"train": train_step.train})
signatures_of("train_step", {"train": {"x": floats(5, 3), "y": floats(5, 1)}})


# --- what TensorFlow's loader gives beside the calls: variables, and gradients through the functions ---
VARIABLES, GRADIENTS = {}, {}
for name in ("mlp", "cnn", "lstm_text", "bidirectional", "transformer", "preprocessing", "dict_outputs",
             "activations"):
    loaded = tf.saved_model.load(f"models/{name}")
    VARIABLES[name] = {attr: [[v.name, v.shape.as_list(), v.dtype.name, bool(v.trainable)] for v in getattr(loaded, attr)]
                       for attr in ("variables", "trainable_variables", "non_trainable_variables")}
    if name in ("mlp", "cnn", "lstm_text", "transformer", "activations"):
        x = {"mlp": floats(3, 8), "cnn": floats(2, 12, 12, 3), "lstm_text": ints(20, 2, 7),
             "transformer": ints(30, 2, 6), "activations": floats(4, 6)}[name]
        with tf.GradientTape() as tape:
            out = loaded.serve(tf.constant(x))
            total = tf.reduce_sum(tf.square(out))
        grads = tape.gradient(total, loaded.trainable_variables)
        np.savez(f"io/{name}.gradients.npz", x=x, total=total.numpy(), **{f"g{i}": tf.convert_to_tensor(g).numpy() for i, g in enumerate(grads)})
        GRADIENTS[name] = len(grads)
m = tf.saved_model.load("models/identity_n")  # its custom gradient, as the loaded model applies it
x = tf.constant(floats(2, 3) * 3)
with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(m.serve(x)["y"] * 10.0)
gx, gv = tape.gradient(loss, [x, m.v])
np.savez("io/identity_n.gradients.npz", x=x.numpy(), gx=gx.numpy(), gv=gv.numpy())
m = tf.saved_model.load("models/module_signatures")
VARIABLES["module_signatures"] = {"attributes": [[v.name, v.shape.as_list(), v.dtype.name, bool(v.trainable)]
                                                 for v in (m.w, m.b, m.steps)],
                                  "has_variables": hasattr(m, "variables")}
x, y = floats(6, 3), floats(6, 2)
losses, steps = [], {}
for step in range(3):  # fine-tuning the loaded module: plain SGD on its restored loss function
    with tf.GradientTape() as tape:
        loss = m.loss(tf.constant(x), tf.constant(y))
    gw, gb = tape.gradient(loss, [m.w, m.b])
    losses.append(loss.numpy())
    steps[f"gw{step}"], steps[f"gb{step}"] = gw.numpy(), gb.numpy()
    m.w.assign_sub(0.5 * gw)
    m.b.assign_sub(0.5 * gb)
np.savez("io/finetune.npz", x=x, y=y, losses=np.array(losses), w=m.w.numpy(), b=m.b.numpy(), **steps)
print(json.dumps({"calls": MANIFEST, "variables": VARIABLES, "gradients": GRADIENTS}))
'''
