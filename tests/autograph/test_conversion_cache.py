"""AutoGraph's conversion caches (autograph/transform.py) hold user code weakly: converting
thousands of functions that are then dropped leaves nothing of them alive. A converted function
shares its original's globals and closure, so a cache value that held it strongly (or pointed back
at the original) kept both alive for the life of the process, with everything their closures held."""
import functools
import gc
import linecache
import weakref

from eagerflow._src.autograph import transform

N = 1000


class _Payload:
    """What a closure typically keeps alive (often a model); weakly referenceable, unlike a list."""

    def __init__(self, size):
        self.size = size


def _alive(refs):
    gc.collect()
    return sum(r() is not None for r in refs)


def _closure(i, payload):
    def scaled(x):
        if x > 0:
            return x * i + payload.size
        return x
    return scaled


def test_dropped_closures_and_their_conversions_are_freed():
    refs = []
    for i in range(N):
        payload = _Payload(100)
        fn = _closure(i, payload)
        converted = transform.convert_function(fn)
        assert converted is not fn and converted(2) == 2 * i + 100
        assert transform.convert_function(fn) is converted  # cached while both live
        refs += [weakref.ref(fn), weakref.ref(converted), weakref.ref(payload)]
        del fn, converted, payload
    assert _alive(refs) == 0


def test_dropped_functions_made_by_exec_free_their_code_and_conversion():
    refs = []
    for i in range(N // 4):
        filename = f"<conversion-cache-test-{i}>"
        source = f"def made_{i}(x):\n    if x > 0:\n        return x + {i}\n    return x\n"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        namespace = {"__name__": "conversion_cache_test_user_code"}  # user code, not a library
        exec(compile(source, filename, "exec"), namespace)
        fn = namespace[f"made_{i}"]
        converted = transform.convert_function(fn)
        assert converted is not fn and converted(1) == 1 + i
        refs += [weakref.ref(fn), weakref.ref(fn.__code__), weakref.ref(converted), weakref.ref(converted.__code__)]
        del linecache.cache[filename], namespace, fn, converted
    assert _alive(refs) == 0


def _callable_class(i):
    class Scaler:  # a class per iteration: its __call__ is a new function each time
        def __init__(self, payload):
            self.payload = payload

        def __call__(self, x):
            if x > 0:
                return x * i + self.payload.size
            return x
    return Scaler


def test_dropped_callable_objects_partials_and_their_conversions_are_freed():
    """Calls through callable objects and functools.partial convert the function they run; nothing
    of the object, the partial or its arguments is kept once the caller drops them."""
    refs = []
    for i in range(N):
        payload = _Payload(100)
        obj = _callable_class(i)(payload)
        converted_call = transform.convert_function(obj)
        assert converted_call is not obj and converted_call(2) == 2 * i + 100
        part = functools.partial(_closure(i, payload), 3)
        converted_part = transform.convert_function(part)
        assert converted_part is not part and converted_part() == 3 * i + 100
        refs += [weakref.ref(obj), weakref.ref(type(obj)), weakref.ref(converted_call.__func__),
                 weakref.ref(part), weakref.ref(part.func), weakref.ref(converted_part.func), weakref.ref(payload)]
        del payload, obj, converted_call, part, converted_part
    assert _alive(refs) == 0


def test_dropped_tf_functions_calling_user_objects_through_a_module_free_them():
    """The call forms of test_user_call_forms.py, traced: a traced graph keeps no user object of a
    dropped tf.function alive (the module itself stays, as a module does)."""
    import eagerflow as tf
    from .user_code import shapes
    refs = []
    for i in range(N // 10):
        payload = _Payload(1)
        obj = _callable_class(i)(payload)
        shapes.DROPPED = obj

        def body(x):
            return shapes.DROPPED(x) + shapes.helper(x)
        f = tf.function(body)
        assert float(f(tf.constant(2.0))) == 2.0 * i + 1 + 4.0
        refs += [weakref.ref(obj), weakref.ref(payload), weakref.ref(body), weakref.ref(f)]
        del shapes.DROPPED, payload, obj, body, f
    assert _alive(refs) == 0
