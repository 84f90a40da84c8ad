"""Which functions AutoGraph's conversion would leave as they are, read from their bytecode.

Why: converting means reading the source, parsing it, running the converters and compiling the
result again (more than half of a first `tf.function` call of a small function). A function with
no `if`, loop, `and`/`or`, conditional expression, `not`, assert, try/with or nested code gives the
control-flow, logical, assert and return converters nothing to do (`straight_line`), and then only
the calls converter (converters/calls.py) can change it. `calls_left_alone` answers, from the
bytecode, whether that converter would leave every call as it is; when it cannot tell, it says no and
the source is converted as before, so the answer "as it is" is only ever given where conversion
would have compiled the original statements again.

The calls converter rewrites a call when what it calls is rooted (through attributes, subscripts
and calls) at a local name, at `len`/`range`, at user code (a function, partial, callable object,
object, class or module), or at a library value through a call's result or an item
(`make(x).method()`, `TABLE[k].method()`), and every direct call of a call's result or of an item
(`make()(x)`, `table[k](x)`). Calls rooted at a library module (`tf.nn.relu(...)`,
`np.float32(...).item()`), at a library value directly (`relu(x)`, `Dense.__call__`), at a
constant or at an operator's result stay as they are. The bytecode is
walked once with a tag per stack slot saying what the value is rooted at; any instruction outside
the small set understood here (and any Python other than 3.11, whose bytecode this reads) makes the
answer "convert". Pure standard library, like transform.py.
"""
from __future__ import annotations

import builtins
import dis
import inspect
import linecache
import sys
import types

# What a converter other than `calls` rewrites always shows in the bytecode: a jump (if, loops,
# and/or, conditional expressions, chained comparisons, assert, comprehensions), a nested code
# object (def, lambda, class, comprehension), `not`, or a try/with block.
_BRANCHING_OPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs) | frozenset(getattr(dis, "hasjump", ())) | frozenset(
    dis.opmap[name] for name in ("UNARY_NOT", "SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH", "BEFORE_WITH",
                                 "BEFORE_ASYNC_WITH") if name in dis.opmap)


def straight_line(code) -> bool:
    """Whether `code` runs its statements once each, in order (see _BRANCHING_OPS)."""
    if getattr(code, "co_exceptiontable", b"") or any(isinstance(c, types.CodeType) for c in code.co_consts):
        return False
    return _BRANCHING_OPS.isdisjoint(code.co_code[::2])  # the opcodes: every other byte


# Tags: what a stack slot's value is rooted at, as the calls converter sees the callee's root.
SAFE = 0        # a library module, a constant, an operator's result, or nothing (NULL)
LIBRARY = 1     # a library value itself, or attributes of it: called as it is
DERIVED = 2     # a call's result or an item of a SAFE value: its attributes are SAFE, calling it is RISKY
RISKY = 3       # a local, len/range, user code, or a library value's call result or item: a call would be rewritten

_READS_311 = {}
if sys.version_info[:2] == (3, 11):
    _op = dis.opmap
    _IGNORED = frozenset(_op[n] for n in ("CACHE", "RESUME", "NOP", "PRECALL", "KW_NAMES", "COPY_FREE_VARS",
                                          "MAKE_CELL"))
    # op -> (pops, pushes) for instructions whose result is an operator's (never a call's root)
    _OPERATORS = {_op["BINARY_OP"]: 2, _op["COMPARE_OP"]: 2, _op["IS_OP"]: 2, _op["CONTAINS_OP"]: 2,
                  _op["UNARY_NEGATIVE"]: 1, _op["UNARY_POSITIVE"]: 1, _op["UNARY_INVERT"]: 1}
    _BUILDS = {_op["BUILD_TUPLE"], _op["BUILD_LIST"], _op["BUILD_SET"], _op["BUILD_SLICE"], _op["BUILD_STRING"]}
    _UPDATES = {_op["LIST_EXTEND"], _op["SET_UPDATE"], _op["DICT_UPDATE"], _op["DICT_MERGE"], _op["LIST_APPEND"]}
    _READS_311 = _op


# generators, coroutines and async generators: parse.parse_function refuses them, with its message
_NOT_CONVERTED_FLAGS = (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
                        | inspect.CO_ITERABLE_COROUTINE)


def left_as_is(fn, is_user_module, is_library_value, is_user_callable) -> bool:
    """Whether conversion would leave straight-line `fn` (the caller checked `straight_line`) as it
    is, known without reading its source: a plain `def` (not a lambda, generator or coroutine)
    written in a file whose lines are at hand (a function whose source is missing still goes to
    parse.parse_function and its warning), and whose calls the calls converter would all leave. The
    predicates are the converter's own (context.ConversionContext's)."""
    code = fn.__code__
    if fn.__name__ == "<lambda>" or code.co_flags & _NOT_CONVERTED_FLAGS:
        return False
    linecache.checkcache(code.co_filename)
    lines = linecache.getlines(code.co_filename, fn.__globals__)
    start = code.co_firstlineno - 1
    if not (0 <= start < len(lines) and lines[start].lstrip().startswith(("@", "def "))):
        return False
    return calls_left_alone(fn, lambda m: not is_user_module(m), is_library_value, is_user_callable)


def calls_left_alone(fn, is_library_module, is_library_value, is_user_callable) -> bool:
    """Whether the calls converter would rewrite none of `fn`'s calls (False: it might, or this
    cannot tell)."""
    if not _READS_311:
        return False
    code = fn.__code__
    op = _READS_311
    closure = dict(zip(code.co_freevars, fn.__closure__ or ()))
    fn_globals = fn.__globals__
    localsplus = code.co_varnames + tuple(c for c in code.co_cellvars if c not in code.co_varnames) + code.co_freevars

    def named(value):
        if isinstance(value, types.ModuleType):
            return SAFE if is_library_module(value) else RISKY
        if is_user_callable(value):
            return RISKY
        return _Library(value) if is_library_value(value) else RISKY

    def global_tag(name):
        if name in fn_globals:
            return named(fn_globals[name])
        if not hasattr(builtins, name):
            return SAFE  # not found: the converter leaves it, and Python raises NameError
        value = getattr(builtins, name)
        return RISKY if value is builtins.len or value is builtins.range else named(value)

    stack = []
    raw = code.co_code
    extended = 0
    for i in range(0, len(raw), 2):
        opcode, arg = raw[i], raw[i + 1] | extended
        extended = 0
        if opcode == op["EXTENDED_ARG"]:
            extended = arg << 8
            continue
        if opcode in _IGNORED:
            continue
        if opcode == op["LOAD_FAST"]:
            stack.append(RISKY)
        elif opcode == op["LOAD_CONST"]:
            stack.append(SAFE)
        elif opcode == op["PUSH_NULL"]:
            stack.append(SAFE)
        elif opcode == op["LOAD_GLOBAL"]:
            if arg & 1:
                stack.append(SAFE)
            stack.append(global_tag(code.co_names[arg >> 1]))
        elif opcode == op["LOAD_DEREF"]:
            name = localsplus[arg]
            if name not in closure:
                stack.append(RISKY)  # a local's cell
            else:
                try:
                    stack.append(named(closure[name].cell_contents))
                except ValueError:
                    stack.append(SAFE)  # an empty cell: the converter leaves the call, Python raises
        elif opcode == op["LOAD_ATTR"]:
            root = stack.pop()
            stack.append(_attribute(root, code.co_names[arg]) if root.__class__ is _Library
                         else SAFE if root == DERIVED else root)
        elif opcode == op["LOAD_METHOD"]:
            root = stack.pop()
            root = (_attribute(root, code.co_names[arg]) if root.__class__ is _Library
                    else SAFE if root == DERIVED else root)
            stack += [root, root]
        elif opcode == op["BINARY_SUBSCR"]:
            stack.pop()
            stack.append(_item(stack.pop()))
        elif opcode == op["CALL"]:
            if len(stack) < arg + 2:
                return False
            del stack[len(stack) - arg:]
            first, second = stack.pop(), stack.pop()  # [NULL or method, callable or self]
            callee = (max(first, second) if first.__class__ is int and second.__class__ is int
                      else _callee(first, second, is_user_callable))
            if callee >= DERIVED:
                return False
            stack.append(_result(callee))
        elif opcode in _OPERATORS:
            if len(stack) < _OPERATORS[opcode]:
                return False
            del stack[len(stack) - _OPERATORS[opcode]:]
            stack.append(SAFE)
        elif opcode in _BUILDS:
            if arg:
                del stack[len(stack) - arg:]
            stack.append(SAFE)
        elif opcode == op["CALL_FUNCTION_EX"]:  # f(*args) or f(*args, **kwargs)
            if len(stack) < 3 + (arg & 1):
                return False
            del stack[len(stack) - 1 - (arg & 1):]
            callee = _callee(stack.pop(), stack.pop(), is_user_callable)
            if callee >= DERIVED:
                return False
            stack.append(_result(callee))
        elif opcode == op["BUILD_MAP"]:
            del stack[len(stack) - 2 * arg:]
            stack.append(SAFE)
        elif opcode == op["BUILD_CONST_KEY_MAP"]:
            del stack[len(stack) - arg - 1:]
            stack.append(SAFE)
        elif opcode in _UPDATES:
            stack.pop()
        elif opcode == op["FORMAT_VALUE"]:
            del stack[len(stack) - (2 if arg & 0x04 else 1):]
            stack.append(SAFE)
        elif opcode == op["UNPACK_SEQUENCE"]:
            stack.pop()
            stack += [SAFE] * arg  # stored into names: a stored name is a local when read again
        elif opcode == op["COPY"]:
            stack.append(stack[-arg])
        elif opcode == op["SWAP"]:
            stack[-1], stack[-arg] = stack[-arg], stack[-1]
        elif opcode in (op["STORE_FAST"], op["POP_TOP"], op["RETURN_VALUE"], op["STORE_DEREF"]):
            if not stack:
                return False
            stack.pop()
        elif opcode == op["STORE_ATTR"]:
            del stack[-2:]
        elif opcode == op["STORE_SUBSCR"]:
            del stack[-3:]
        else:
            return False  # an instruction not modelled here: convert from the source
    return True



class _Library:
    """A LIBRARY slot, with the value it holds: the calls converter looks up attributes of a library
    value (statically, see static_attribute), so that a user function kept on one
    (`config.activation(x)` on a SimpleNamespace) is still converted."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


_UNKNOWN = object()


def static_attribute(value, name):
    """`value.name` without running any code of `value` (no property, no __getattr__): the plain
    function behind a static or class method; `_UNKNOWN` when there is no such attribute."""
    try:
        found = inspect.getattr_static(value, name)
    except AttributeError:
        return _UNKNOWN
    return found.__func__ if isinstance(found, (staticmethod, classmethod)) else found


def _rank(tag):
    return LIBRARY if isinstance(tag, _Library) else tag


def _callee(first, second, is_user_callable):
    """The tag of what a call calls, from its two slots; a library value's user function is RISKY."""
    for slot in (first, second):
        if isinstance(slot, _Library) and is_user_callable(slot.value):
            return RISKY
    return max(_rank(first), _rank(second))


def _attribute(root, name):
    """An attribute keeps its object's root (a library value's attribute is looked up); a SAFE
    value's call result or item gives SAFE ones (`tf.constant(x).numpy`)."""
    if isinstance(root, _Library):
        return _Library(static_attribute(root.value, name))
    return SAFE if root == DERIVED else root


def _item(container):
    """An item of a library value or of user code may be anything: RISKY; one of a SAFE value is
    DERIVED (`tf.constant(x)[0].numpy()` stays, `[f][0](x)` is rewritten)."""
    return RISKY if _rank(container) in (LIBRARY, RISKY) else DERIVED


def _result(callee):
    """A call's result keeps the callee's root for a call made on it: `tf.constant(x).numpy()`
    stays (a module), `Dense(3).build(...)` is rewritten (a library value's call result), and so is
    any result called directly (`make()(x)`)."""
    return RISKY if callee == LIBRARY else DERIVED
