"""Program -> readable Python source -> one callable over raw NumPy arrays.

One statement per op, assigned to a variable named after the node, the user's source line in a
comment, kernels/constants/variables bound once as globals, and `del` at a value's last use:

    def simple_computation(a, b):
        MatMul = k_MatMul(a, b)  # user.py:5
        Add = k_AddV2(MatMul, c_Add_y); del MatMul  # user.py:6
        Relu = k_Relu(Add); del Add  # user.py:7
        return (Relu,)

The source is registered in `linecache`, so tracebacks show these lines; `line_ops` maps each line
back to its Operation for error messages that name the node and the user's line.
"""
from __future__ import annotations

import keyword
import linecache
import weakref
import re

import numpy as np

from ..core import dtypes as _dt

_counter = [0]
_SIMPLE = (bool, int, float, str, type(None))


def _ident(name: str) -> str:
    s = re.sub(r"\W", "_", name)
    if not s or s[0].isdigit() or keyword.iskeyword(s):
        s = "v_" + s
    return s


class _Namer:
    def __init__(self, reserved=()):
        self.used = set(reserved)

    def __call__(self, base: str) -> str:
        base = _ident(base)
        name, i = base, 1
        while name in self.used:
            name = f"{base}_{i}"
            i += 1
        self.used.add(name)
        return name


def _is_simple(value):
    # NOTE: repr(float("inf")) is `inf`, a NameError in generated code: non-finite floats are globals.
    return isinstance(value, _SIMPLE) and not (isinstance(value, float) and not np.isfinite(value))


def _literal(value):
    """Source text for a simple attribute value, or None when it must be bound as a global."""
    if _is_simple(value):
        return repr(value)
    if isinstance(value, (tuple, list)) and all(_is_simple(v) for v in value):
        return repr(tuple(value)) if isinstance(value, tuple) else repr(list(value))
    return None


class GeneratedFunction:
    """The compiled program: `fn(*arrays) -> tuple of arrays`, its source, and line -> op."""

    def __init__(self, fn, source, filename, line_ops):
        self.fn = fn
        self.source = source
        self.filename = filename
        self.line_ops = line_ops


def generate(program, name: str, captures: dict, recording: bool = False) -> GeneratedFunction:
    """`captures` maps id(placeholder) -> the outside value it stands for (an ndarray, or a Variable
    for a resource handle); parameters are the other placeholders, in order. With `recording`, ops
    run with the attributes they take under a recording tape (`OpDef.record_attrs`: a loop then
    keeps the history its gradient needs)."""
    namer = _Namer(reserved={"np", _ident(name)})
    var = {}  # id(tensor) -> source name
    env = {"np": np}
    params = []
    for ph in program.inputs:
        if id(ph) in captures:
            value = captures[id(ph)]
            gname = namer(("var_" if ph.dtype is _dt.resource else "cap_") + ph._op.name)
            env[gname] = value
            var[id(ph)] = gname
        else:
            pname = namer(ph._op.name)
            params.append(pname)
            var[id(ph)] = pname

    def ref(tensor):
        tensor = program.resolve(tensor)
        key = id(tensor)
        if key not in var:
            op = tensor._op
            if op.type == "Const":
                gname = namer("c_" + op.name)
                env[gname] = op.attrs["value"]
                var[key] = gname
            else:
                raise RuntimeError(f"codegen: tensor {tensor.name} is used before it is computed")
        return var[key]

    # Last use of each value, for early release.
    last_use = {}
    for i, op in enumerate(program.ops):
        for t in op.inputs:
            last_use[id(program.resolve(t))] = i
    keep = {id(program.resolve(t)) for t in program.outputs}

    kernels = {}  # op type -> global name of its kernel
    lines = [f"def {_ident(name)}({', '.join(params)}):"]
    line_ops = {}
    for i, op in enumerate(program.ops):
        args = [ref(t) for t in op.inputs]
        stmt = _statement(op, args, namer, var, env, kernels, recording)
        if stmt is None:
            continue
        dead = sorted({var[id(program.resolve(t))] for t in op.inputs
                       if last_use.get(id(program.resolve(t))) == i and id(program.resolve(t)) not in keep
                       and program.resolve(t)._op.type not in ("Const", "Placeholder")})
        if dead:
            stmt += "; del " + ", ".join(dead)
        if op.source:
            stmt += f"  # {op.source[0].rsplit('/', 1)[-1]}:{op.source[1]}"
        lines.append("    " + stmt)
        line_ops[len(lines)] = op
    outs = [ref(t) for t in program.outputs]
    lines.append(f"    return ({', '.join(outs)}{',' if len(outs) == 1 else ''})")
    source = "\n".join(lines) + "\n"
    _counter[0] += 1
    filename = f"<eagerflow-generated {name} #{_counter[0]}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), env)
    generated = GeneratedFunction(env[_ident(name)], source, filename, line_ops)
    # The source stays readable in tracebacks while the function lives, and no longer.
    weakref.finalize(generated, linecache.cache.pop, filename, None)
    return generated


def _statement(op, args, namer, var, env, kernels, recording=False):
    """One line of Python for one op, or None when the op needs no code (Placeholder)."""
    opdef = op.opdef
    if op.type == "Placeholder":
        return None
    if op.type == "Const":
        gname = namer("c_" + op.name)
        env[gname] = op.attrs["value"]
        var[id(op.outputs[0])] = gname
        return None
    if op.type == "ReadVariableOp":  # a read is an attribute load; no call
        out = namer(op.name)
        var[id(op.outputs[0])] = out
        return f"{out} = {args[0]}._array"
    # Kernel globals get their names from the namer like everything else, so a node that happens
    # to be called `k_Relu` cannot shadow the kernel it calls.
    kname = kernels.get(opdef.name)
    if kname is None:
        kname = kernels[opdef.name] = namer("k_" + opdef.name)
        env[kname] = opdef.kernel
    call_args = list(args)
    attrs = op.attrs
    if recording and op.opdef.record_attrs is not None:
        attrs = op.opdef.record_attrs(attrs)
    for key, value in attrs.items():
        text = _literal(value)
        if text is None:
            gname = namer(f"a_{op.name}_{key}")
            env[gname] = value
            text = gname
        call_args.append(f"{key}={text}")
    call = f"{kname}({', '.join(call_args)})"
    outs = op.outputs
    if not opdef.multi_output:
        out = namer(op.name)
        var[id(outs[0])] = out
        return f"{out} = {call}"
    if not outs:
        return call
    names = [namer(f"{op.name}_{i}") for i in range(len(outs))]
    for t, n in zip(outs, names):
        var[id(t)] = n
    return f"{', '.join(names)}{',' if len(names) == 1 else ''} = {call}"
