"""AutoGraph's conversion caches (autograph/transform.py) hold user code weakly: converting
thousands of functions that are then dropped leaves nothing of them alive. A converted function
shares its original's globals and closure, so a cache value that held it strongly (or pointed back
at the original) kept both alive for the life of the process, with everything their closures held."""
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
