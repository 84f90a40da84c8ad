"""The trace cache (trace/cache.py): key rules as TensorFlow 2.21 keys them (the expected trace
counts and messages below were taken from TensorFlow 2.21), no leaks, the bound, the statistics
and the retrace explanations. Threads: test_cache_threads.py."""
import collections
import dataclasses
import gc
import logging
import weakref

import numpy as np
import pytest

import eagerflow as tf

TF_UNHASHABLE = ("Could not generate a generic TraceType for {}.Please verify that it is immutable/hashable. "
                 "Otherwise, consider implementing the Tracing Protocol for it.")


class _Records(logging.Handler):
    """The eagerflow logger's records at INFO and above, whatever other tests set."""

    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append((record.levelno, record.getMessage()))

    def __enter__(self):
        logger = logging.getLogger("eagerflow")
        self._saved = logger.level, logger.filters
        logger.setLevel(logging.INFO)
        logger.filters = []
        logger.addHandler(self)
        return self

    def __exit__(self, *exc):
        logger = logging.getLogger("eagerflow")
        logger.removeHandler(self)
        logger.level, logger.filters = self._saved

    def at(self, level):
        return [m for lv, m in self.messages if lv == level]


# --- Python literals: by value, as Python compares them -----------------------------------------

def test_one_one_point_zero_and_true_share_one_trace():
    @tf.function
    def f(n):
        return tf.constant(n, tf.float32) * 1.0

    assert [f(1).numpy(), f(1.0).numpy(), f(True).numpy()] == [1.0, 1.0, 1.0]
    assert f.experimental_get_tracing_count() == 1  # TensorFlow 2.21: 1


def test_zero_and_negative_zero_share_a_trace_and_nan_keys_alike():
    @tf.function
    def f(n):
        return tf.constant(1.0)

    f(0.0)
    f(-0.0)
    assert f.experimental_get_tracing_count() == 1
    f(1)
    f("1")
    f(None)
    f(float("nan"))
    f(float("nan"))  # another NaN object: TensorFlow keys it with the first
    assert f.experimental_get_tracing_count() == 5  # TensorFlow: 0.0, "1", None, nan after 1 -> 4 more


def test_numpy_values_are_keyed_by_dtype_and_shape():
    @tf.function
    def f(x):
        return x * 2

    assert f(np.float32(1.0)).numpy() == 2.0
    assert f(np.float32(2.0)).numpy() == 4.0
    np.testing.assert_array_equal(f(np.zeros(2)).numpy(), [0, 0])
    np.testing.assert_array_equal(f(np.ones(2)).numpy(), [2, 2])
    assert f.experimental_get_tracing_count() == 2


# --- structures ----------------------------------------------------------------------------------

def test_structures_lists_tuples_namedtuples_differ_mappings_are_dicts():
    P = collections.namedtuple("P", "a b")

    class Frozen(collections.abc.Mapping):
        def __init__(self, d):
            self.d = d

        def __getitem__(self, k):
            return self.d[k]

        def __iter__(self):
            return iter(self.d)

        def __len__(self):
            return len(self.d)

    @tf.function
    def f(s):
        return tf.constant(1.0)

    f([1, 2])
    f((1, 2))
    f(P(1, 2))
    f({"a": 1})
    assert f.experimental_get_tracing_count() == 4
    f(collections.OrderedDict(a=1))  # TensorFlow 2.21: a Mapping keys as a dict
    f(Frozen({"a": 1}))
    assert f.experimental_get_tracing_count() == 4


def test_mapping_of_tensors_is_rebuilt_for_the_trace():
    @tf.function
    def f(batch):
        return batch["ids"] * 2 + batch["w"]

    out = f(collections.OrderedDict(w=tf.constant(1), ids=tf.constant([1, 2])))
    np.testing.assert_array_equal(out.numpy(), [3, 5])


# --- Variables: dtype, shape, trainability and aliasing ------------------------------------------

def test_variables_key_by_spec_and_aliasing():
    @tf.function
    def f(a, b):
        a.assign_add([10.0])
        return a + b

    v1, v2 = tf.Variable([1.0]), tf.Variable([2.0])
    assert f(v1, v2).numpy().tolist() == [13.0]
    assert f(v2, v1).numpy().tolist() == [23.0]
    assert f.experimental_get_tracing_count() == 1  # TensorFlow: v1,v2 and v2,v1 share
    # the same variable twice: its own trace, in which the write through `a` is seen through `b`
    assert f(v1, v1).numpy().tolist() == [42.0]
    assert f.experimental_get_tracing_count() == 2
    assert v1.numpy().tolist() == [21.0]
    f(tf.Variable([3.0], trainable=False), v2)
    assert f.experimental_get_tracing_count() == 3  # trainability is part of the key


# --- objects: by __hash__/__eq__, weakly; unhashable -> TypeError --------------------------------

class _Unhashable:
    def __init__(self, x):
        self.x = x

    def __eq__(self, other):
        return isinstance(other, _Unhashable) and self.x == other.x


@dataclasses.dataclass
class _Config:
    x: float


@dataclasses.dataclass(frozen=True)
class _Frozen:
    scale: float


def test_unhashable_argument_raises_tensorflows_type_error_every_call():
    @tf.function
    def f(u):
        return tf.constant(u.x)

    for value in (1.0, 2.0, 3.0):  # main keyed these by id(): a reused address got the old value
        u = _Unhashable(value)
        with pytest.raises(TypeError) as err:
            f(u)
        assert str(err.value).startswith(TF_UNHASHABLE.format(repr(u)))
        assert "@dataclass(frozen=True)" in str(err.value)
    with pytest.raises(TypeError, match="Could not generate a generic TraceType for _Config"):
        f(_Config(2.0))


def test_no_wrong_result_from_an_object_at_a_reused_address():
    @tf.function
    def f(box):
        return tf.constant(box.x)

    wrong = 0
    for i in range(300):
        try:
            wrong += float(f(_Unhashable(float(i))).numpy()) != i
        except TypeError:
            pass
    assert wrong == 0


def test_method_of_unhashable_instance_raises_type_error():
    @dataclasses.dataclass
    class D:
        x: float

        @tf.function
        def m(self, y):
            return self.x * y

    with pytest.raises(TypeError, match="unhashable type: 'D'"):  # TensorFlow 2.21's words, then the fix
        D(2.0).m(tf.constant(1.0))


def test_equal_hashable_objects_share_a_trace():
    @tf.function
    def f(cfg, x):
        return x * cfg.scale

    x = tf.constant(2.0)
    one, same, three = _Frozen(1.0), _Frozen(1.0), _Frozen(3.0)
    assert f(one, x).numpy() == 2.0
    assert f(same, x).numpy() == 2.0
    assert f.experimental_get_tracing_count() == 1
    assert f(three, x).numpy() == 6.0
    assert f.experimental_get_tracing_count() == 2
    assert f.last_retrace_reason == "cfg.scale: 1.0 -> 3.0"


def test_a_dropped_objects_traces_die_with_it():
    class Box:
        def __init__(self, x):
            self.x = x

    @tf.function
    def f(box, t):
        return t + box.x

    refs = []
    for i in range(1000):
        box = Box(float(i))
        refs.append(weakref.ref(box))
        assert f(box, tf.constant(0.0)).numpy() == i
        del box
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
    assert f.cache_info().currsize == 0
    assert len(f._cache.table) == 0


# --- no leaks ------------------------------------------------------------------------------------

def test_modules_with_function_methods_are_freed():
    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(np.ones((4, 4), np.float32))

        @tf.function
        def __call__(self, x):
            return tf.matmul(x, self.w)

    x = tf.ones([1, 4])
    refs = []
    for _ in range(2000):
        m = Model()
        np.testing.assert_array_equal(m(x).numpy(), np.full((1, 4), 4.0))
        refs.append(weakref.ref(m))
        del m
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def test_method_binding_is_per_instance_and_weak():
    class Scaler:
        def __init__(self, k):
            self.k = k

        @tf.function
        def apply(self, x):
            return x * self.k

    a, b = Scaler(2.0), Scaler(3.0)
    x = tf.constant(1.0)
    assert a.apply(x).numpy() == 2.0 and b.apply(x).numpy() == 3.0
    assert a.apply is a.apply  # one bound Function per instance, kept while it lives
    bound, ref = a.apply, weakref.ref(a)
    del a
    gc.collect()
    assert ref() is None  # the bound Function does not keep its instance alive
    # A new trace runs with self=None, as in TF 2.21: "'NoneType' object has no attribute 'k'"
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'k'"):
        bound(tf.ones([2]))


def test_autograph_keeps_no_closure_alive():
    class Big:
        pass

    refs = []
    for i in range(1000):
        payload = Big()
        refs.append(weakref.ref(payload))

        def body(x, payload=payload, i=i):
            if x > 0:  # a tensor condition: AutoGraph converts this function
                x = x + i
            return x

        f = tf.function(body, autograph=True)
        assert f(tf.constant(1.0)).numpy() == 1.0 + i
        del f, body, payload
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def test_autograph_closure_cells_are_freed():
    refs = []
    for i in range(300):
        data = np.full(4, float(i))
        refs.append(weakref.ref(data))

        def make(data):
            def body(x):
                if x > 0:
                    x = x + data[0]
                return x
            return body
        f = tf.function(make(data))
        assert f(tf.constant(1.0)).numpy() == 1.0 + i
        del f, data
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


# --- statistics, clearing, the bound -------------------------------------------------------------

def test_cache_info_and_clear_like_functools():
    @tf.function
    def f(x):
        return x + 1

    assert f.cache_info() == (0, 0, 256, 0, 0)
    f(tf.ones([1]))
    f(tf.ones([1]))
    f(tf.ones([2]))
    info = f.cache_info()
    assert (info.hits, info.misses, info.maxsize, info.currsize, info.evictions) == (1, 2, 256, 2, 0)
    f.cache_clear()
    assert f.cache_info().currsize == 0
    f(tf.ones([1]))
    assert f.experimental_get_tracing_count() == 3


def test_lru_eviction_with_one_warning_naming_the_function():
    @tf.function(experimental_max_traces=3)
    def bounded(x):
        return x * 2

    with _Records() as records:
        for n in (1, 2, 3):
            bounded(tf.ones([n]))
        bounded(tf.ones([1]))  # 1 is now the most recently used: 2 goes first
        bounded(tf.ones([4]))
        bounded(tf.ones([5]))
    info = bounded.cache_info()
    assert (info.currsize, info.evictions, info.maxsize) == (3, 2, 3)
    assert bounded.experimental_get_tracing_count() == 5
    bounded(tf.ones([1]))  # survived: the LRU order kept it
    assert bounded.experimental_get_tracing_count() == 5
    bounded(tf.ones([2]))  # evicted: traces again
    assert bounded.experimental_get_tracing_count() == 6
    warnings = [m for m in records.at(logging.WARNING) if "evicted" in m]
    assert len(warnings) == 1 and "bounded" in warnings[0] and "experimental_max_traces" in warnings[0]


def test_global_bound_setter():
    saved = tf.config.get_function_max_traces()
    try:
        tf.config.set_function_max_traces(2)

        @tf.function
        def f(x):
            return x

        for n in range(1, 6):
            f(tf.ones([n]))
        assert f.cache_info().currsize == 2 and f.cache_info().maxsize == 2
        with pytest.raises(ValueError):
            tf.config.set_function_max_traces(0)
    finally:
        tf.config.set_function_max_traces(saved)
    assert tf.config.get_function_max_traces() == 256


def test_memory_bounded_under_random_shapes():
    @tf.function(experimental_max_traces=16)
    def f(x):
        return x + 1

    rng = np.random.default_rng(0)
    for n in rng.integers(1, 200, 300):
        f(tf.ones([int(n)]))
    assert f.cache_info().currsize == 16
    assert len(f._cache.table) <= 16


# --- every retrace explained ---------------------------------------------------------------------

def test_retrace_reasons_name_the_argument_path_in_user_words():
    class Box:
        pass

    @tf.function
    def f(x, n, batch, box):
        return x + n + batch["ids"]

    x2, box = tf.ones([2, 3]), Box()
    ids = tf.ones([3])
    with _Records() as records:
        f(x2, 2, {"ids": ids}, box)
        f(tf.ones([2, 4]), 2, {"ids": tf.ones([4])}, box)
        f(tf.ones([2, 4]), 3, {"ids": tf.ones([4])}, box)
        f(tf.ones([2, 4]), 3, {"ids": tf.ones([1])}, box)
        f(tf.ones([2, 4]), 3, {"ids": tf.ones([1])}, Box())
    history = f.experimental_trace_history()
    reasons = [event.reason for event in history]
    assert reasons == [
        "first call",
        "x: shape (2, 3) -> (2, 4); batch['ids']: shape (3,) -> (4,)",
        "n: Python int 2 -> 3",
        "batch['ids']: shape (4,) -> (1,)",
        "box: new object of type Box",
    ]
    assert [e.number for e in history] == [1, 2, 3, 4, 5]
    assert history[0].signature.startswith("x: tensor float32 shape (2, 3), n: Python int 2")
    infos = records.at(logging.INFO)
    assert len(infos) == 4 and "n: Python int 2 -> 3" in infos[1]
    assert not any("<class" in m or "0x" in m.split("calls to")[-1].split("triggered")[-1] for m in infos)


def test_frequent_retracing_warning_counts_as_tensorflow_does():
    @tf.function
    def f(x):
        return x + 1

    calls = [1, 1, 1, 2, 3, 3, 4, 5, 6, 6, 6, 7, 8, 9, 10, 11]
    warned = []
    with _Records() as records:
        for i, n in enumerate(calls):
            before = len(records.messages)
            f(tf.ones([n]))
            for level, message in records.messages[before:]:
                if "triggered tf.function retracing" in message:
                    warned.append((i, message))
    # TensorFlow 2.21, same calls: at call 7 "5 out of the last 8", at call 8 "6 out of the last 9", no more
    assert [(i, m.split(" calls to")[0]) for i, m in warned] == [(7, "5 out of the last 8"), (8, "6 out of the last 9")]
    assert "The latest retrace was caused by x: shape (5,) -> (6,)" in warned[1][1]
    assert "reduce_retracing=True" in warned[1][1].split("caused by")[1]


def test_python_number_retrace_suggests_a_tensor():
    @tf.function
    def g(x, n):
        return x + n

    with _Records() as records:
        for n in range(6):
            g(tf.ones([2]), n)
    warnings = [m for m in records.at(logging.WARNING) if "retracing" in m]
    assert warnings[0].startswith("5 out of the last 5 calls")  # TensorFlow 2.21: at the fifth int
    assert "n: Python int 3 -> 4" in warnings[0] and "pass a tensor instead of a Python number" in warnings[0]


def test_identity_keyed_argument_missing_on_most_calls_warns_once():
    @tf.function
    def apply(fn, x):
        return fn(x)

    with _Records() as records:
        for _ in range(12):
            apply(lambda v: v * 2, tf.constant(1.0))  # a new lambda each call: a new trace each call
    identity = [m for m in records.at(logging.WARNING) if "keyed by identity" in m]
    assert len(identity) == 1
    assert "argument 'fn' (type function)" in identity[0]


def test_hot_path_keys_dtype_and_shape_and_leaves_variables_alone():
    @tf.function
    def f(x):
        return x + x

    assert f(tf.ones([2])).dtype == tf.float32
    assert f(tf.ones([2])).dtype == tf.float32  # served by the hot path
    assert f(tf.ones([2], tf.int32)).dtype == tf.int32  # same shape, another dtype: its own trace
    assert f(tf.ones([2, 1])).shape == (2, 1)
    v = tf.Variable([1.0, 2.0])
    np.testing.assert_array_equal(f(v).numpy(), [2.0, 4.0])  # a Variable is never taken for a tensor
    assert f.experimental_get_tracing_count() == 4
    info = f.cache_info()
    assert (info.hits, info.misses) == (1, 4)
    with tf.GradientTape() as tape:  # a recording tape on a hot-path hit still sees the call
        x = tf.constant([3.0, 4.0])
        tape.watch(x)
        y = f(x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [2.0, 2.0])


def test_input_signature_calls_are_counted():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return x * 2

    for n in (1, 2, 3):
        f(tf.ones([n]))
    info = f.cache_info()
    assert (info.hits, info.misses, info.currsize) == (2, 1, 1)


def test_objects_compared_by_value_name_the_attribute_that_changed():
    class Scale:
        def __init__(self, factor):
            self.factor = factor

        def __eq__(self, other):
            return type(other) is Scale and other.factor == self.factor

        def __hash__(self):
            return hash(self.factor)

    @tf.function
    def f(x, scale):
        return x * scale.factor

    a, b = Scale(2.0), Scale(3.0)
    assert f(tf.constant(1.0), a).numpy() == 2.0
    assert f(tf.constant(1.0), Scale(2.0)).numpy() == 2.0  # equal to a (alive): the same trace
    assert f(tf.constant(1.0), b).numpy() == 3.0
    assert f.experimental_get_tracing_count() == 2
    assert f.last_retrace_reason == "scale.factor: 2.0 -> 3.0"



def test_aliasing_inside_structures():
    @tf.function
    def f(vs):
        vs[0].assign_add([1.0])
        return vs[1].read_value()

    v, w = tf.Variable([1.0]), tf.Variable([5.0])
    assert f([v, w]).numpy().tolist() == [5.0]
    assert f([v, v]).numpy().tolist() == [3.0]  # the write through vs[0] is read through vs[1]
    assert f.experimental_get_tracing_count() == 2
    assert f([w, w]).numpy().tolist() == [6.0]  # the same aliasing pattern: the same trace
    assert f.experimental_get_tracing_count() == 2



def test_python_literals_share_a_trace_exactly_when_python_calls_them_equal():
    from hypothesis import given, settings, strategies as st
    from eagerflow._src.trace import signature

    scalar = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(-3, 3), st.just(float("nan")), st.just(-0.0),
                       st.sampled_from(["", "a", "1"]))
    value = st.recursive(scalar, lambda inner: st.one_of(st.tuples(inner, inner), st.lists(inner, max_size=2),
                                                          st.dictionaries(st.sampled_from("ab"), inner, max_size=2)),
                         max_leaves=4)

    def same(a, b):  # Python equality with every NaN equal, and containers of one type
        if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
            return True
        if isinstance(a, (list, tuple, dict)) or isinstance(b, (list, tuple, dict)):
            if type(a) is not type(b) or len(a) != len(b):
                return False
            if isinstance(a, dict):
                return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
            return all(same(x, y) for x, y in zip(a, b))
        if (type(a) is str) != (type(b) is str):
            return False
        return a == b

    @settings(max_examples=300, deadline=None)
    @given(value, value)
    def check(a, b):
        ka, kb = signature.key_of(a, []), signature.key_of(b, [])
        assert (ka == kb) == same(a, b)
        if ka == kb:
            assert hash(ka) == hash(kb)
    check()
