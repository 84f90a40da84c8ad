"""In-place execution: which dead buffer an elementwise statement may write its result into.

A careful NumPy programmer writes `np.tanh(t, out=t)` once `t` is no longer needed, saving the
allocation and the page faults of a fresh array (on large tensors that is most of an op's cost
beyond the arithmetic). The generated code knows where each value dies (the `del` at its last use),
so a ufunc op whose input dies at it can write into that input:

    mul_2 = k_Mul(c_mul_2_x, add, out=add); del add

Besides ufuncs, a kernel function may say it takes `out=` (`kernel.fills_out = True`: Conv2D,
BiasAdd, Relu): called with `out=` it writes its whole result there, and without it returns a new
C-contiguous array; either way it keeps no reference to its inputs and returns no view of them.
Only a kernel that also says `kernel.in_place = True` (BiasAdd, Relu: element i of the result
needs only element i of the input) may be given one of its own inputs; the others (a convolution
reads a whole window for each result) get only a spare buffer from the pool. So a convolution's
bias, activation and batch normalization run in the convolution's own output.

Never into an array the user can see or that another name still reaches. A buffer qualifies only
when all of these hold:
- its producer allocated it in this very call: a ufunc kernel, a `fills_out` kernel or a matrix `@`
  (never a parameter, a captured constant, a variable's value, a folded constant or an op that may
  return a view);
- every op that reads it only reads (those kernels and `@` keep no reference and make no view:
  a reshape, transpose, Identity, slice, branch or loop input disqualifies it, since the view or
  the sub-block may still see it later);
- it is not an output of the program (returned arrays are the user's; so are the intermediates a
  tape keeps, which are outputs of the recording variant);
- it dies at this op, and has exactly the output's dtype and shape: statically equal shapes, or a
  buffer every other input broadcasts into without changing its shape (scalars, all-ones shapes, or
  trailing dimensions each 1 or equal to the buffer's known one, as a bias or a batch
  normalization's scale of [C] against [None, H, W, C]), never rank 0 (a ufunc on 0-d arrays
  returns a NumPy scalar, which `out=` cannot take).
"""
from __future__ import annotations

import numpy as np

from ..ops.bfloat16 import op_involves as op_involves_bfloat16


def writes_fresh_array(op) -> bool:
    """Whether `op`'s statement makes a new array and keeps no reference to its inputs: a
    one-output ufunc kernel called without attributes, or a matrix product written as `a @ b`."""
    kernel = op.opdef.kernel
    if op_involves_bfloat16(op):  # its statement calls ops/bfloat16.py's widening wrapper, not the ufunc
        return False
    if isinstance(kernel, np.ufunc):
        return kernel.nout == 1 and not op.opdef.multi_output and not op.attrs
    if fills_out(op):
        return True
    return op.type == "MatMul" and all(t.shape.rank == 2 for t in op.inputs)


def fills_out(op) -> bool:
    """Whether `op`'s kernel is a function that says it takes `out=` (see above); not a ufunc, so
    never run tile by tile (codegen/tiling.py, which asks `takes_out`)."""
    return (getattr(op.opdef.kernel, "fills_out", False) and not op.opdef.multi_output and len(op.outputs) == 1
            and not op_involves_bfloat16(op))


def takes_out(op) -> bool:
    """Whether `op`'s statement can be given `out=`: a ufunc kernel call."""
    return isinstance(op.opdef.kernel, np.ufunc) and writes_fresh_array(op)


def takes_out_buffer(op) -> bool:
    """Whether `op`'s statement can be given `out=` for a whole array: a ufunc or a `fills_out` kernel."""
    return takes_out(op) or fills_out(op)


def owned_buffers(program, keep) -> set:
    """ids of the tensors whose arrays this program's code allocates and alone reaches: the values
    a later statement may overwrite once they are dead. `keep`: ids of the program's outputs."""
    only_read = {}
    for op in program.ops:
        safe = writes_fresh_array(op)
        for t in op.inputs:
            key = id(program.resolve(t))
            only_read[key] = only_read.get(key, True) and safe
    owned = set()
    for op in program.ops:
        if not writes_fresh_array(op) or len(op.outputs) != 1:
            continue
        out = op.outputs[0]
        key = id(out)
        if program.resolve(out) is out and key not in keep and only_read.get(key, True):
            owned.add(key)
    return owned


def _broadcasts_into(t, shape) -> bool:
    """`t` broadcast against an array of `shape` leaves that shape as it is."""
    s = t.shape
    return s.is_fully_defined() and s.rank <= shape.rank and all(d == 1 for d in s.as_list())


def _broadcasts_along(t, shape) -> bool:
    """`t` broadcast against an array of `shape` leaves that shape as it is: each of its dimensions,
    matched from the right, is 1 or equal to the array's statically known one."""
    s = t.shape
    if not s.is_fully_defined() or s.rank > shape.rank:
        return False
    have = shape.as_list()[shape.rank - s.rank:]
    return all(d == 1 or d == h for d, h in zip(s.as_list(), have))


def _fits(buffer, op, inputs) -> bool:
    out = op.outputs[0]
    # NOTE: strings are left out: a fixed-width string result can be wider than its inputs.
    if buffer.dtype is not out.dtype or out.dtype.name == "string":
        return False
    have, want = buffer.shape, out.shape
    if have.rank is None or have.rank == 0 or want.rank != have.rank:
        return False
    if have.is_fully_defined() and want.is_fully_defined():
        return have.as_list() == want.as_list()
    return all(t is buffer or _broadcasts_along(t, have) for t in inputs)


def dead_buffer(program, op, position, last_use, owned):
    """The input of `op` (a resolved tensor) whose buffer its result may be written into, or None."""
    if not (takes_out(op) or (fills_out(op) and getattr(op.opdef.kernel, "in_place", False))):
        return None
    inputs = [program.resolve(t) for t in op.inputs]
    for t in inputs:
        if id(t) in owned and last_use.get(id(t)) == position and _fits(t, op, inputs):
            return t
    return None


def returned_buffers(program, last_use, owned, keep) -> set:
    """ids of the tensors whose statement allocates a buffer that the program returns, directly
    or after later statements wrote into it (`out=`): the user keeps that array, so a spare from
    the pool would leave with it (see below)."""
    root = {}
    for i, op in enumerate(program.ops):
        reuse = dead_buffer(program, op, i, last_use, owned)
        if reuse is not None:
            root[id(op.outputs[0])] = root.get(id(reuse), id(reuse))
    return {root.get(k, k) for k in keep}


# ----------------------------------------------------------------------------------------------
# Spare buffers kept from one call to the next
# ----------------------------------------------------------------------------------------------
# A careful NumPy programmer allocates a large scratch array once and reuses it on every call. The
# generated code does the same for large temporaries of a statically known shape: where such a
# temporary dies without being written into (`out=` went elsewhere), it is given to the pool of
# its shape and dtype, and the next statement of that shape that needs a new array takes it:
#
#     pow_square = k_Square(x, out=spare_4194304_float32.take())
#     ...
#     mul_3 = k_Mul(mul, add_1, out=mul); spare_4194304_float32.give(add_1); del add_1, mul
#
# A statement whose buffer the call returns takes no spare (`returned_buffers`): the spare would
# leave with the user, while the temporaries' long chain ran in a fresh one. So, as in the hand-
# written code, the warm spare serves the temporaries and only the result is newly allocated
# (GELU on 16 MB: the chain's 7 passes then run in memory already touched).
#
# `take()` returns None when the pool is empty, and `out=None` makes the ufunc allocate. A pool
# holds at most as many arrays as it has `take` sites, so memory stays bounded (the arrays go with
# the generated function). Concurrent calls are safe: `list.pop` hands an array to one caller only.
# Only temporaries qualify (the ownership rules above), so a pooled array is never the user's.

SPARE_MIN_BYTES = 1 << 18  # below this NumPy's own allocator is as fast as a pool


class SparePool:
    """Dead temporaries of one shape and dtype, kept for the next statement that needs one."""

    __slots__ = ("_arrays", "limit")

    def __init__(self):
        self._arrays = []
        self.limit = 0  # the number of statements that take from this pool

    def take(self):
        try:
            return self._arrays.pop()
        except IndexError:
            return None

    def give(self, array):
        if len(self._arrays) < self.limit:
            self._arrays.append(array)

    def __repr__(self):
        return f"<SparePool holding {len(self._arrays)} of at most {self.limit}>"


def spare_key(tensor):
    """(shape, dtype) of a tensor big enough and known well enough to use a pool, or None."""
    shape, dtype = tensor.shape, tensor.dtype
    if shape.rank is None or shape.rank == 0 or not shape.is_fully_defined() or dtype.name == "string":
        return None
    dims = tuple(shape.as_list())
    if int(np.prod(dims)) * np.dtype(dtype.np_dtype).itemsize < SPARE_MIN_BYTES:
        return None
    return dims, dtype


class Spares:
    """The pools of one generated function, bound as its globals (`spare_<size>_<dtype>`)."""

    def __init__(self, namer, env):
        self._namer, self._env, self._names = namer, env, {}

    def take_site(self, tensor):
        """The expression a statement computing `tensor` passes as `out=`, or None."""
        key = spare_key(tensor)
        if key is None:
            return None
        name = self._names.get(key)
        if name is None:
            name = self._names[key] = self._namer(f"spare_{'x'.join(map(str, key[0]))}_{key[1].name}")
            self._env[name] = SparePool()
        self._env[name].limit += 1
        return f"{name}.take()"

    def give_site(self, tensor):
        """The pool a dying temporary goes to: only one a statement already takes from."""
        key = spare_key(tensor)
        return None if key is None else self._names.get(key)
