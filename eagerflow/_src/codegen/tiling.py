"""Elementwise chains over large arrays run tile by tile, so each tile stays in the CPU's cache.

A chain of elementwise ops over an array larger than the L2 cache streams the whole array through
memory once per op: GELU on 16 MB is nine passes over it. The same statements run on one 256 KiB
tile at a time keep that tile in L2 through all nine; only the chain's inputs and results travel
to and from memory (numexpr's blocking, and what a careful NumPy programmer writes by hand for a
hot loop). On this project's GELU benchmark that is about half the time of the hand-tuned,
untiled NumPy. The generated code keeps one statement per op:

    mul_3 = np.empty(4194304, float32)  # user.py:6
    tiles_1_tile_0 = tiles_1.take()
    for s, (t0, t1) in zip(tiles_1.slices, tiles_1_tile_0):
        x_t = x[s]
        mul = k_Mul(c_mul_x, x_t, out=t0)  # user.py:6
        pow_square = k_Square(x_t, out=t1)  # user.py:6
        ...
        mul_3_t = k_Mul(mul, add_1, out=mul_3[s])  # user.py:6
    tiles_1.give(tiles_1_tile_0); del ...

A run of consecutive statements is tiled when every one of them
- is a one-output ufunc kernel without attributes (codegen/buffers.py `takes_out`), or an op whose
  kernel says it is elementwise (`OpDef.elementwise`: Sigmoid, Erf, Relu, Softplus, ...; it makes
  its own tile-sized result): each reads element i of its inputs to write element i of its
  result, keeps no reference, makes no view;
- computes a statically known shape S, the same for the whole run, of at least MIN_BYTES;
- reads only arrays of exactly shape S and values of one element (scalars, all-ones shapes);
- works on floating, complex or boolean values (an integer op may raise on a value, and its
  message would then show a tile instead of the tensor);
and some statement of the run reads a value another one computes, or one is an elementwise
kernel of three or more NumPy passes (a chain in itself). Statements that read none of each other's values gain
nothing from tiling.

Inside the loop each value the chain computes and no later statement reads lives in a tile-sized
scratch buffer (reused once it dies, written in place where an input dies at the op, as
buffers.py does for whole arrays). A value read after the chain, or returned, is written into its
own full array, tile by tile: a fresh one, or the buffer of a temporary that dies in the chain
(the same rule as buffers.py's `out=`: only an array this call allocated, and only when that
array is C-contiguous at run time, so a flat view reaches its memory; `flat_target`). Scratch sets
come from a pool, taken and given back per call, so concurrent calls never share one.
"""
from __future__ import annotations

import numpy as np

from .buffers import SparePool, _broadcasts_into, takes_out

TILE_BYTES = 1 << 18  # 256 KiB per array: a chain's few live tiles fit in a core's L2 (1-2 MiB)
MIN_BYTES = 1 << 20  # below this the arrays fit in L2 already, and tiling only adds calls
_KINDS = frozenset("fcb")


class Chain:
    """Statements `start` to `stop - 1` of a program (Consts among them cost nothing), over `dims`."""

    __slots__ = ("start", "stop", "dims", "tile")

    def __init__(self, start, stop, dims, tile):
        self.start, self.stop, self.dims, self.tile = start, stop, dims, tile


def _kind(tensor):
    return np.dtype(tensor.dtype.np_dtype).kind


def _member(program, op):
    """(dims, itemsize) of a statement that may join a tiled chain, or None."""
    if not takes_out(op) and not (op.opdef.elementwise and len(op.outputs) == 1 and not op.opdef.multi_output):
        return None
    out = op.outputs[0]
    shape = out.shape
    if program.resolve(out) is not out or shape.rank is None or shape.rank == 0 or not shape.is_fully_defined():
        return None
    if _kind(out) not in _KINDS:
        return None
    dims = tuple(shape.as_list())
    itemsize = np.dtype(out.dtype.np_dtype).itemsize
    for t in map(program.resolve, op.inputs):
        if _kind(t) not in _KINDS:
            return None
        if t.shape.is_fully_defined() and tuple(t.shape.as_list()) == dims:
            itemsize = max(itemsize, np.dtype(t.dtype.np_dtype).itemsize)
        elif not _broadcasts_into(t, shape):
            return None
    return dims, itemsize


def _dtype_text(tensor):
    return repr(np.dtype(tensor.dtype.np_dtype).name)


def _is_const(op):
    return op.type == "Const" and not op.inputs


def find_chains(program) -> dict:
    """{start position: Chain} for the runs of statements of `program` worth tiling."""
    ops = program.ops
    chains = {}
    i = 0
    while i < len(ops):
        first = _member(program, ops[i])
        if first is None:
            i += 1
            continue
        dims, itemsize = first
        members = [i]
        j = i + 1
        while j < len(ops):
            if _is_const(ops[j]):
                j += 1
                continue
            found = _member(program, ops[j])
            if found is None or found[0] != dims:
                break
            itemsize = max(itemsize, found[1])
            members.append(j)
            j += 1
        size = int(np.prod(dims))
        made = {id(ops[m].outputs[0]) for m in members}
        linked = any(id(program.resolve(t)) in made for m in members for t in ops[m].inputs)
        passes = any(not takes_out(ops[m]) and ops[m].opdef.elementwise >= 3 for m in members)
        if (linked or passes) and size * itemsize >= MIN_BYTES:
            chains[i] = Chain(i, members[-1] + 1, dims, max(1, TILE_BYTES // itemsize))
        i = members[-1] + 1
    return chains


class TileSlices:
    """The slices of a flat array of `size` elements, `tile` at a time (the last may be shorter),
    made while iterating: a declared shape of 10**12 elements costs nothing until a call runs over it."""

    __slots__ = ("size", "tile")

    def __init__(self, size, tile):
        self.size, self.tile = size, tile

    def __len__(self):
        return -(-self.size // self.tile)

    def __iter__(self):
        size, tile = self.size, self.tile
        for a in range(0, size, tile):
            yield slice(a, min(a + tile, size))


class _TileViews:
    """Per tile, the views of one scratch set's buffers that tile uses: the full-tile views for every
    tile but the last, which gets views cut to its length."""

    __slots__ = ("full", "last", "count")

    def __init__(self, buffers, slices):
        self.count = len(slices)
        self.full = tuple(b[:slices.tile] for b in buffers)
        last = slices.size - (self.count - 1) * slices.tile if self.count else 0
        self.last = tuple(b[:last] for b in buffers)

    def __len__(self):
        return self.count

    def __iter__(self):
        full = self.full
        for _ in range(self.count - 1):
            yield full
        if self.count:
            yield self.last


class TileScratch(SparePool):
    """The tile-sized scratch buffers of one chain, kept from call to call like buffers.py's spares:
    each kept set yields, per tile, the views of its buffers that tile uses (the last tile may be
    shorter). `take` hands a set to one caller only, making one when none is free. Neither the
    slices nor a set's views are listed up front, so planning a chain is O(1) in its size."""

    __slots__ = ("slices", "_dtypes", "_tile")

    def __init__(self, size, tile, dtypes, limit=2):
        super().__init__()
        self.slices = TileSlices(size, tile)
        self._dtypes, self._tile, self.limit = tuple(dtypes), min(tile, max(size, 1)), limit

    def take(self):
        views = super().take()
        if views is None:
            views = _TileViews([np.empty(self._tile, d) for d in self._dtypes], self.slices)
        return views

    def __repr__(self):
        return f"<TileScratch of {len(self.slices)} tiles, {len(self._dtypes)} buffers, {len(self._arrays)} kept>"


def flat_target(array):
    """A flat view of `array` to write a chain's result into, tile by tile, or None when no flat
    view reaches its memory (not C-contiguous: `reshape(-1)` would copy)."""
    return array.reshape(-1) if array.flags.c_contiguous else None


def emit_chain(em, program, var, chain, last_use, keep, owned, spared, indent):
    """Writes `chain`'s statements as a loop over tiles (see the module docstring). `spared`: ids of
    values whose statement took a spare from a pool (their buffer goes back to it: never a result)."""
    from .pycode import _statement  # (pycode imports this module)

    positions = range(chain.start, chain.stop)
    ops = program.ops
    for p in positions:  # constants: globals, no code
        if _is_const(ops[p]):
            _statement(ops[p], [], em.namer, var, em.env, em.kernels)
    members = [p for p in positions if not _is_const(ops[p])]
    produced = {id(ops[p].outputs[0]): p for p in members}
    dims, size = chain.dims, int(np.prod(chain.dims))
    full = {}  # id -> resolved tensor read whole from outside the chain
    for p in members:
        for t in map(program.resolve, ops[p].inputs):
            if id(t) not in produced and t.shape.is_fully_defined() and tuple(t.shape.as_list()) == dims:
                full.setdefault(id(t), t)
    results = [p for p in members
               if id(ops[p].outputs[0]) in keep or last_use.get(id(ops[p].outputs[0]), p) >= chain.stop]
    first_op = ops[members[0]]
    tile_var = dict(var)
    before, after_names = [], []

    def flat_of(name):
        if len(dims) == 1:
            return name
        flat = em.namer(f"{name}_flat")
        before.append((f"{flat} = {name}.reshape(-1)", None))
        after_names.append(flat)
        return flat

    # Where each result is written: the buffer of a temporary dying in the chain, or a new array.
    s = em.namer("s")  # the tile's slice
    target_fn = em.namer("flat_target")
    em.env[target_fn] = flat_target
    targets, claimed, finals = {}, set(), []
    for p in results:
        out = ops[p].outputs[0]
        final = em.namer(ops[p].name)
        reuse = next((t for t in full.values()
                      if id(t) in owned and id(t) not in claimed and id(t) not in spared and id(t) not in keep
                      and t.dtype is out.dtype and chain.start <= last_use.get(id(t), -1) <= p), None)
        if reuse is not None:
            claimed.add(id(reuse))
            flat = em.namer(f"{final}_flat")
            before.append((f"{flat} = {target_fn}({var[id(reuse)]})", ops[p]))
            before.append((f"if {flat} is None: {flat} = np.empty({size}, {_dtype_text(out)})",
                           ops[p]))
        else:
            flat = em.namer(f"{final}_flat") if len(dims) > 1 else final
            before.append((f"{flat} = np.empty({size}, {_dtype_text(out)})", ops[p]))
        targets[p] = flat
        finals.append((p, final, flat))

    # Tile names of the arrays read whole.
    tile_reads = []
    for key, t in full.items():
        source = flat_of(var[key])
        name = em.namer(f"{var[key]}_t")
        tile_reads.append(f"{name} = {source}[{s}]")
        tile_var[key] = name

    # Scratch slots for the values that die in the chain.
    slot_dtypes, free, slot_of, scratch_names = [], {}, {}, []
    body = []
    for p in members:
        op = ops[p]
        inputs = [program.resolve(t) for t in op.inputs]
        args = [tile_var[id(t)] if id(t) in tile_var else em.ref(program, tile_var, t) for t in inputs]
        dying = [t for t in inputs if id(t) in produced and id(t) in slot_of and last_use.get(id(t)) == p]
        for t in dict.fromkeys(map(id, dying)):
            free.setdefault(slot_dtypes[slot_of[t]], []).append(slot_of[t])
        out = op.outputs[0]
        copy_to = None
        if not takes_out(op):  # an elementwise kernel that makes its own (tile-sized) array
            out_expr = None
            copy_to = targets.get(p)
        elif p in targets:
            out_expr = f"{targets[p]}[{s}]"
        else:
            dtype = np.dtype(out.dtype.np_dtype)
            in_place = next((slot_of[id(t)] for t in dying if slot_dtypes[slot_of[id(t)]] == dtype), None)
            pool = free.get(dtype, [])
            if in_place is not None:
                pool.remove(in_place)
                slot = in_place
            elif pool:
                slot = pool.pop()
            else:
                slot = len(slot_dtypes)
                slot_dtypes.append(dtype)
                scratch_names.append(em.namer(f"t{slot}"))
            slot_of[id(out)] = slot
            in_place_name = next((tile_var[id(t)] for t in dying if slot_of[id(t)] == slot), None)
            out_expr = in_place_name or scratch_names[slot]
            if last_use.get(id(out), p) == p:  # computed, never read: its slot is free again
                free.setdefault(dtype, []).append(slot)
        stmt = _statement(op, args, em.namer, tile_var, em.env, em.kernels, em.recording, out=out_expr, inputs=inputs)
        if copy_to is not None:
            stmt += f"; {copy_to}[{s}] = {tile_var[id(out)]}"
        body.append((stmt, op, tuple(args)))

    pool_name = em.namer("tiles")
    em.env[pool_name] = TileScratch(size, chain.tile, slot_dtypes)
    sets = em.namer(f"{pool_name}_set")
    for text, op in before:
        em.emit(indent, text, op or first_op)
    if scratch_names:
        em.emit(indent, f"{sets} = {pool_name}.take()", None)
        unpack = f"({', '.join(scratch_names)}{',' if len(scratch_names) == 1 else ''})"
        em.emit(indent, f"for {s}, {unpack} in zip({pool_name}.slices, {sets}):", None)
    else:
        em.emit(indent, f"for {s} in {pool_name}.slices:", None)
    for text in tile_reads:
        em.emit(indent + 1, text, None)
    for stmt, op, args in body:
        em.emit(indent + 1, stmt, op)
        em.line_args[len(em.lines)] = args

    # After the loop: the results under their names, every loop name and dead input gone.
    loop_names = [s] + scratch_names + [tile_var[k] for k in full] + \
                 [tile_var[id(ops[p].outputs[0])] for p in members]
    for p, final, flat in finals:
        if flat != final:
            em.emit(indent, f"{final} = {flat}" + (f".reshape({dims!r})" if len(dims) > 1 else ""), None)
            after_names.append(flat)
        var[id(ops[p].outputs[0])] = final
    dying = {k: t for k, t in full.items()
             if chain.start <= last_use.get(k, -1) < chain.stop and k not in keep
             and t._op.type not in ("Const", "Placeholder")}
    gives = em._gives([t for k, t in dying.items() if k in owned and k not in claimed], var)
    names = sorted(set(loop_names + after_names + [var[k] for k in dying]) - {final for _, final, _ in finals})
    if scratch_names:
        em.emit(indent, f"{pool_name}.give({sets}){gives}; del {', '.join(names + [sets])}", None)
    else:
        em.emit(indent, f"{gives.lstrip('; ')}{'; ' if gives else ''}del {', '.join(names)}", None)
