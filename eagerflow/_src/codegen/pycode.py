"""Program -> readable Python source -> one callable over raw NumPy arrays.

One statement per op, assigned to a variable named after the node, the user's source line in a
comment, kernels/constants/variables bound once as globals, and `del` at a value's last use:

    def simple_computation(a, b):
        MatMul = a @ b  # user.py:5
        Add = k_AddV2(MatMul, c_Add_y, out=MatMul); del MatMul  # user.py:6
        Relu = k_Relu(Add); del Add  # user.py:7
        return (Relu,)

An elementwise statement writes into an input that dies at it when that buffer is a temporary of
this call (`out=`; codegen/buffers.py says which qualify). The source is registered in `linecache`,
so tracebacks show these lines; `line_ops` maps each line back to its Operation for error messages
that name the node and the user's line. Conds and while loops are written inline by
inline_control_flow.py.
"""
from __future__ import annotations

import itertools
import keyword
import linecache
import re
import threading
import weakref

import numpy as np

from ..core import dtypes as _dt
from ..ops import bfloat16 as _bfloat16
from .buffers import Spares, dead_buffer, owned_buffers, returned_buffers, spare_key, takes_out, takes_out_buffer
from .expressions import expression as _expression
from .inline_control_flow import emit_if, emit_while
from .loop_gradient import can_inline as _can_inline_while_grad
from .loop_gradient import emit_while_grad

# Numbers that make each generated module's file name unique (linecache is keyed by it, and a
# module's finalizer removes its entry). Traces may run in many threads: the lock keeps "take the
# next number" one step (a shared `counter += 1` then a read could hand two modules one name).
_module_numbers = itertools.count(1)
_module_numbers_lock = threading.Lock()
_SIMPLE = (bool, int, float, str, type(None))


def _ident(name: str) -> str:
    """A Python identifier for a node name. Only ASCII names are kept as they are: Python reads
    identifiers NFKC-normalised, so 'µ' (micro sign) would become 'μ' (Greek mu) in the generated
    module, and two names would meet as one."""
    if name.isascii() and name.isidentifier() and not keyword.iskeyword(name):
        return name  # most node names; no regular expression (its first use compiles it)
    s = re.sub(r"[^0-9A-Za-z_]", "_", name)
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
    """The compiled program: `fn(*arrays) -> tuple of arrays`, its source, line -> op, and
    line -> the names of the op's argument values (so a run-time error can show the op's
    TensorFlow message for the values it failed on: trace/concrete.py)."""

    def __init__(self, fn, source, filename, line_ops, line_args=None):
        self.fn = fn
        self.source = source
        self.filename = filename
        self.line_ops = line_ops
        self.line_args = line_args or {}


def generate(program, name: str, captures: dict, recording: bool = False) -> GeneratedFunction:
    """`captures` maps id(placeholder) -> the outside value it stands for (an ndarray, or a Variable
    for a resource handle); parameters are the other placeholders, in order. With `recording`, ops
    run with the attributes they take under a recording tape (`OpDef.record_attrs`: a loop then
    keeps the history its gradient needs)."""
    emitter = _Emitter(name, recording)
    var = {}  # id(tensor) -> source name
    params = []
    for ph in program.inputs:
        if id(ph) in captures:
            gname = emitter.namer(("var_" if ph.dtype is _dt.resource else "cap_") + ph._op.name)
            emitter.env[gname] = captures[id(ph)]
            var[id(ph)] = gname
        else:
            pname = emitter.namer(ph._op.name)
            params.append(pname)
            var[id(ph)] = pname
    emitter.lines.append(f"def {_ident(name)}({', '.join(params)}):")
    outs = emitter.block(program, var, 1)
    emitter.lines.append(f"    return ({', '.join(outs)}{',' if len(outs) == 1 else ''})")
    source = "\n".join(emitter.lines) + "\n"
    with _module_numbers_lock:
        number = next(_module_numbers)
    filename = f"<eagerflow-generated {name} #{number}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), emitter.env)
    # NOTE: callers run the function with NumPy's floating-point warnings off (ops/fp_errors.py):
    # ConcreteFunction switches once per call; branch and loop bodies run inside a kernel, quiet already.
    generated = GeneratedFunction(emitter.env[_ident(name)], source, filename, emitter.line_ops,
                                  emitter.line_args)
    # The source stays readable in tracebacks while the function lives, and no longer.
    weakref.finalize(generated, linecache.cache.pop, filename, None)
    return generated


class _Emitter:
    """Writes the statements of a program, and of the branches and loop bodies inside it, as one
    Python function: a graph's cond becomes an `if`, its while_loop a `while`, bodies inlined."""

    def __init__(self, name, recording):
        self.namer = _Namer(reserved={"np", _ident(name)})
        self.env = {"np": np}
        self.kernels = {}  # op type -> global name of its kernel
        self.lines = []
        self.line_ops = {}
        self.line_args = {}
        self.recording = recording
        self.spares = Spares(self.namer, self.env)
        self.spared = set()  # ids of values whose statement took a spare (never a tiled chain's result)

    def ref(self, program, var, tensor):
        tensor = program.resolve(tensor)
        key = id(tensor)
        if key not in var:
            op = tensor._op
            if op.type != "Const":
                raise RuntimeError(f"codegen: tensor {tensor.name} is used before it is computed")
            gname = self.namer("c_" + op.name)
            self.env[gname] = op.attrs["value"]
            var[key] = gname
        return var[key]

    def emit(self, indent, text, op):
        if op is not None and op.source:
            text += f"  # {op.source[0].rsplit('/', 1)[-1]}:{op.source[1]}"
        self.lines.append("    " * indent + text)
        if op is not None:
            self.line_ops[len(self.lines)] = op

    def block(self, program, var, indent):
        """Emits `program`'s ops at `indent`; returns the names holding its outputs."""
        keep = {id(program.resolve(t)) for t in program.outputs}
        if any(op.type == "Conv2D" for op in program.ops):  # its bias/activation/normalization, fused
            from .epilogue import fuse_conv_epilogues
            program = fuse_conv_epilogues(program, keep)
            keep = {id(program.resolve(t)) for t in program.outputs}
        last_use = {}
        for i, op in enumerate(program.ops):
            for t in op.inputs:
                last_use[id(program.resolve(t))] = i
        owned = owned_buffers(program, keep)  # dead temporaries a statement may write into
        returned = returned_buffers(program, last_use, owned, keep)  # fresh arrays for these, not spares
        chains = _tiled_chains(program)  # elementwise runs over large arrays, run tile by tile
        resume = 0
        for i, op in enumerate(program.ops):
            if i < resume:
                continue
            chain = chains.get(i)
            if chain is not None:
                from .tiling import emit_chain
                emit_chain(self, program, var, chain, last_use, keep, owned, self.spared, indent)
                resume = chain.stop
                continue
            args = [self.ref(program, var, t) for t in op.inputs]
            inline = _INLINE.get(op.type)
            if inline is not None and self._inlinable(op):
                inline(self, op, args, var, indent)
                stmt = reuse = None
            else:
                reuse = dead_buffer(program, op, i, last_use, owned)
                out = var[id(reuse)] if reuse is not None else self._spare_for(op, returned)
                stmt = _statement(op, args, self.namer, var, self.env, self.kernels, self.recording, out=out,
                                  inputs=[program.resolve(t) for t in op.inputs])
            dying = {id(t): t for t in map(program.resolve, op.inputs)
                     if last_use.get(id(t)) == i and id(t) not in keep and t._op.type not in ("Const", "Placeholder")}
            dead = sorted(var[k] for k in dying)
            if stmt is not None:
                gives = self._gives([t for t in dying.values() if id(t) in owned and t is not reuse], var)
                self.emit(indent, stmt + gives + ("; del " + ", ".join(dead) if dead else ""), op)
                self.line_args[len(self.lines)] = tuple(args)
            elif dead and inline is not None:
                self.emit(indent, "del " + ", ".join(dead), None)
        return [self.ref(program, var, t) for t in program.outputs]

    def _gives(self, temporaries, var):
        """`; pool.give(name)` for each dying temporary a pool takes (codegen/buffers.py)."""
        parts = []
        for t in sorted(temporaries, key=lambda t: var[id(t)]):
            pool = self.spares.give_site(t)
            if pool is not None:
                parts.append(f"; {pool}.give({var[id(t)]})")
        return "".join(parts)

    def _spare_for(self, op, returned):
        """`out=` for a ufunc statement that would allocate a large array: a spare one from the
        pool of its shape and dtype, kept from an earlier call (codegen/buffers.py); none for an
        array the call returns."""
        if not takes_out_buffer(op) or id(op.outputs[0]) in returned:
            return None
        site = self.spares.take_site(op.outputs[0])
        if site is not None:
            self.spared.add(id(op.outputs[0]))
        return site

    def _inlinable(self, op):
        if op.type == "WhileGrad":
            return _can_inline_while_grad(op, self.recording)
        return all(getattr(b, "program", None) is not None for b in op.attrs.values()
                   if hasattr(b, "externals"))

    def sub_block(self, branch, explicit_names, external_names, indent):
        """Inlines a branch: its placeholders read the given names; returns its output names."""
        var = {}
        captured = branch.graph.internal_captures
        for ph, name in zip(branch.explicit, explicit_names):
            var[id(ph)] = name
        for j, ph in enumerate(captured):
            var[id(ph)] = external_names[branch.index[j]]
        return self.block(branch.program, var, indent)

    def outputs(self, op, var):
        names = [self.namer(f"{op.name}_{i}") for i in range(len(op.outputs))]
        for t, n in zip(op.outputs, names):
            var[id(t)] = n
        return names


def _tiled_chains(program):
    """codegen/tiling.py's chains of `program`; that module is imported only for a program with a
    large elementwise statement (most programs have none, and a first call should not pay for it)."""
    if any((takes_out(op) or op.opdef.elementwise) and spare_key(op.outputs[0]) is not None for op in program.ops):
        from .tiling import find_chains
        return find_chains(program)
    return {}


_INLINE = {"If": emit_if, "StatelessIf": emit_if, "While": emit_while, "StatelessWhile": emit_while,
           "WhileGrad": emit_while_grad}


def _statement(op, args, namer, var, env, kernels, recording=False, out=None, inputs=None):
    """One line of Python for one op, or None when the op needs no code (Placeholder). `out`: the
    name of a dead buffer the (ufunc) kernel writes its result into (codegen/buffers.py); `inputs`:
    the op's inputs after the passes' substitutions (a folded constant where the graph has an op)."""
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
    kernel, kernel_key = opdef.kernel, opdef.name
    if _bfloat16.op_involves(op):  # widened to float32 and rounded back, as eager bind does (ops/bfloat16.py)
        kernel = _bfloat16.widened_kernel(opdef, [t.dtype for t in op.outputs])
        kernel_key = (opdef.name, kernel)
        expression = None
    else:
        expression = _expression(op, args, op.inputs if inputs is None else inputs, env)
    if expression is not None and out is None:
        out = namer(op.name)
        var[id(op.outputs[0])] = out
        return f"{out} = {expression}"
    # Kernel globals get their names from the namer like everything else, so a node that happens
    # to be called `k_Relu` cannot shadow the kernel it calls.
    kname = kernels.get(kernel_key)
    if kname is None:
        kname = kernels[kernel_key] = namer("k_" + opdef.name)
        env[kname] = kernel
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
    if out is not None:
        call_args.append(f"out={out}")
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
