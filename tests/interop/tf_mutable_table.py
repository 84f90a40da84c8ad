"""The TensorFlow-written SavedModel with a MutableHashTable that its functions write to (insert,
remove, an insert inside a tf.cond), and the calls replayed on it: in TensorFlow by SCRIPT (the
interop test, and fixtures/make_tf_mutable_table.py for the main suite's copy), in eagerflow by the
tests, both through `run_calls`. The module's code (MODULE) also runs on eagerflow (module_class), so
eagerflow's save of the same module is checked against TensorFlow's answers."""
import inspect
import json

CALLS = [("find", ["a", "b", "z"]), ("add", ["c", "a"], [3, 10]), ("find", ["a", "b", "c", "z"]),
         ("size",), ("remove", ["b", "q"]), ("dump",), ("maybe_add", True, ["m"], [40]),
         ("maybe_add", False, ["n"], [50]), ("find", ["m", "n", "c"]), ("dump",)]


def run_calls(m, calls, constant):
    """The answers of `calls` on the loaded model `m` (`constant`: the framework's tf.constant)."""
    out = []
    for call in calls:
        name, args = call[0], call[1:]
        if name == "find":
            out.append(m.find(constant(args[0])).numpy().tolist())
        elif name == "add":
            out.append(int(m.add(constant(args[0]), constant(args[1], "int64"))))
        elif name == "remove":
            out.append(int(m.remove(constant(args[0]))))
        elif name == "size":
            out.append(int(m.size()))
        elif name == "maybe_add":
            out.append(int(m.maybe_add(constant(args[0]), constant(args[1]), constant(args[2], "int64"))))
        else:
            keys, values = m.dump()
            out.append(sorted(zip([k.decode() for k in keys.numpy().tolist()], values.numpy().tolist())))
    return out


# The module, in code both frameworks run (`tf` is TensorFlow or eagerflow): module_class(tf) builds it.
MODULE = """
class M(tf.Module):
    def __init__(self):
        self.t = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
        self.t.insert(tf.constant(["a", "b"]), tf.constant([1, 2], tf.int64))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([None], tf.int64)])
    def add(self, k, v):
        self.t.insert(k, v)
        return self.t.size()

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def remove(self, k):
        self.t.remove(k)
        return self.t.size()

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def find(self, k):
        return self.t.lookup(k)

    @tf.function(input_signature=[])
    def size(self):
        return self.t.size()

    @tf.function(input_signature=[])
    def dump(self):
        return self.t.export()

    @tf.function(input_signature=[tf.TensorSpec([], tf.bool), tf.TensorSpec([None], tf.string),
                                  tf.TensorSpec([None], tf.int64)])
    def maybe_add(self, flag, k, v):
        def yes():
            self.t.insert(k, v)
            return tf.constant(1)
        return tf.cond(flag, yes, lambda: tf.constant(0)) + tf.cast(self.t.size(), tf.int32)

"""


def module_class(framework):
    """The class M of MODULE, defined with `framework` as `tf`."""
    namespace = {"tf": framework}
    exec(MODULE, namespace)  # noqa: S102 - the test's own source text, above
    return namespace["M"]


# Run under TensorFlow in an empty folder: writes the model to `m` and prints TensorFlow's answers.
SCRIPT = inspect.getsource(run_calls) + """
import json
import tensorflow as tf
""" + MODULE + """
tf.saved_model.save(M(), "m")
calls = json.loads(%r)
print(json.dumps(run_calls(tf.saved_model.load("m"), calls, lambda v, d=None: tf.constant(v, d))))
""" % json.dumps(CALLS)
