"""Which names a piece of code reads and writes, and which are live after it.

Pure AST work (no eagerflow imports). The control-flow converters need three facts per construct:
- the names it assigns (candidates for branch outputs / loop variables),
- the names live after it (only those must leave a branch or a loop),
- the names live on entry to its bodies (those must flow into the generated functions).
Liveness is computed backwards over statements; a loop body's live-out is approximated by
"anything the loop reads", which is safe (a few extra loop variables, never a missing one).

Nested functions, lambdas and comprehensions are their own scopes: their stores are not ours,
but the names they read from us count as reads.
"""
from __future__ import annotations

import ast

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
           ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _names(node, want_store):
    found = []

    def visit(n, top):
        if isinstance(n, _SCOPES) and not top:
            if want_store:
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    found.append(n.name)
                # decorators / defaults are evaluated in our scope
                for d in getattr(n, "decorator_list", []):
                    visit(d, False)
                return
            for child in ast.iter_child_nodes(n):  # reads of free names inside
                visit(child, False)
            return
        if isinstance(n, ast.Name):
            if want_store == isinstance(n.ctx, (ast.Store, ast.Del)):
                found.append(n.id)
            return
        if want_store and isinstance(n, (ast.Import, ast.ImportFrom)):
            for alias in n.names:
                found.append((alias.asname or alias.name).split(".")[0])
        if want_store and isinstance(n, ast.ExceptHandler) and n.name:
            found.append(n.name)
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and not want_store:
            found.append(n.target.id)
        for child in ast.iter_child_nodes(n):
            visit(child, False)

    visit(node, True)
    return found


def stores(nodes):
    """Names assigned by these statements (in order of first assignment, not descending into scopes)."""
    out = []
    for n in _as_list(nodes):
        for name in _names(n, True):
            if name not in out:
                out.append(name)
    return out


def loads(nodes):
    """Names read by these statements or expressions (including reads inside nested scopes)."""
    out = set()
    for n in _as_list(nodes):
        out.update(_names(n, False))
    return out


def declared(func):
    """Names a function declares `global` or `nonlocal` (never loop variables or branch outputs)."""
    out = set()
    for n in ast.walk(func):
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            out.update(n.names)
    return out


def _as_list(nodes):
    return nodes if isinstance(nodes, list) else [nodes]


def definitely_stores(stmt):
    """Names every path through a simple statement assigns (compound statements: none, safely)."""
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Import, ast.ImportFrom,
                         ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return set(stores(stmt))
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.NamedExpr):
        return set(stores(stmt))
    return set()


def live_in(stmts, live_out):
    """Names whose values on entry to `stmts` may be read, given the names live after them.

    As a side effect, annotates every If/While/For with `ag_live_out` (a set)."""
    live = set(live_out)
    for stmt in reversed(stmts):
        live = _stmt_live_in(stmt, live)
    return live


def _stmt_live_in(stmt, out):
    if isinstance(stmt, ast.If):
        stmt.ag_live_out = set(out)
        stmt.ag_body_live_in = live_in(stmt.body, out) | live_in(stmt.orelse, out)
        return loads(stmt.test) | stmt.ag_body_live_in
    if isinstance(stmt, (ast.While, ast.For)):
        stmt.ag_live_out = set(out)
        header = loads(stmt.test) if isinstance(stmt, ast.While) else loads(stmt.iter)
        extra = getattr(stmt, "ag_extra_test", None)  # a `for` loop's exit test (a break flag)
        if extra is not None:
            header |= loads(extra)
        # Live at the end of the body: what the next test and the next iteration read, or what is
        # read after the loop; a fixed point (a name read in the body only after being set there,
        # such as a temporary set in one branch, is not live across iterations).
        target = set(stores(stmt.target)) if isinstance(stmt, ast.For) else set()
        end = out | header
        while True:
            body_in = live_in(stmt.body, end) - target
            grown = end | body_in
            if grown == end:
                break
            end = grown
        stmt.ag_body_live_in = body_in
        return header | body_in | live_in(stmt.orelse, out) | out
    if isinstance(stmt, (ast.Return, ast.Raise)):
        return loads(stmt)
    if isinstance(stmt, ast.With):  # the body runs once; `as` names are bound before it
        bound = set()
        for item in stmt.items:
            if item.optional_vars is not None:
                bound |= set(stores(item.optional_vars))
        exprs = set()
        for item in stmt.items:
            exprs |= loads(item.context_expr)
        return (live_in(stmt.body, out) - bound) | exprs
    if isinstance(stmt, ast.Try):
        for h in getattr(stmt, "handlers", []):
            live_in(h.body, out)
        live_in(stmt.body, out)
        return loads(stmt) | out
    return (out - definitely_stores(stmt)) | loads(stmt)


def contains(stmts, kinds):
    """Whether these statements hold a node of `kinds` outside nested scopes and (for break,
    continue) outside nested loops."""
    loop_bound = kinds in ((ast.Break,), (ast.Continue,), (ast.Break, ast.Continue))

    def visit(n):
        if isinstance(n, kinds):
            return True
        if isinstance(n, _SCOPES):
            return False
        if loop_bound and isinstance(n, (ast.For, ast.While)):
            return any(visit(c) for c in n.orelse)
        return any(visit(c) for c in ast.iter_child_nodes(n))
    return any(visit(s) for s in _as_list(stmts))


def always_returns(stmts):
    """Whether every path through `stmts` ends in a `return` or `raise`."""
    for s in stmts:
        if isinstance(s, (ast.Return, ast.Raise)):
            return True
        if isinstance(s, ast.If) and s.orelse and always_returns(s.body) and always_returns(s.orelse):
            return True
    return False


def annotate(func, reserved=()):
    """Liveness and definedness for every If/While/For of `func` (its own scope only).

    Sets on each: `ag_live_out`, `ag_body_live_in`, `ag_defined` (names bound on entry, counting
    names bound by earlier converted constructs, which always bind what they assign)."""
    live_in(func.body, set())
    excluded = declared(func) | set(reserved)
    params = {a.arg for a in ast.walk(func.args) if isinstance(a, ast.arg)}
    _walk_defined(func.body, params, excluded)


def state_names(node, excluded):
    blocks = node.body + node.orelse if isinstance(node, ast.If) else node.body
    return [n for n in stores(blocks) if n not in excluded and not n.startswith(COMPOSITE_PREFIX)]


def loop_vars(node, excluded):
    header = loads(node.test) if isinstance(node, ast.While) else set()
    extra = getattr(node, "ag_extra_test", None)  # a `for` loop's exit test reads its break flag
    if extra is not None:
        header |= loads(extra)
    live = node.ag_body_live_in | header | node.ag_live_out
    names = [n for n in state_names(node, excluded) if n in live]
    if isinstance(node, ast.For):
        names += [n for n in stores(node.target) if n in node.ag_live_out and n not in names]
    return names


def _walk_defined(stmts, defined, excluded):
    defined = set(defined)
    for s in stmts:
        if isinstance(s, (ast.If, ast.While, ast.For)):
            s.ag_defined = set(defined)
            assigned = set(state_names(s, excluded))
            if isinstance(s, ast.If):
                inner = (defined - assigned) | (assigned & s.ag_body_live_in)
                _walk_defined(s.body, inner, excluded)
                _walk_defined(s.orelse, inner, excluded)
            else:
                target = set(stores(s.target)) if isinstance(s, ast.For) else set()
                inner = (defined - assigned) | set(loop_vars(s, excluded)) | target
                _walk_defined(s.body, inner, excluded)
                _walk_defined(s.orelse, defined, excluded)
            defined |= assigned | set(stores(s.orelse))
        elif isinstance(s, (ast.With, ast.Try)):
            for field in ("body", "orelse", "finalbody"):
                _walk_defined(getattr(s, field, []) or [], defined, excluded)
            for h in getattr(s, "handlers", []):
                _walk_defined(h.body, defined, excluded)
            defined |= set(stores(s))
        else:
            defined |= set(stores(s))


# --- composite names: `obj.attr`, `xs[0]` -------------------------------------------------------

COMPOSITE_PREFIX = "ag_comp_"  # names the converters give composite state (never user state)


def _composite_root(node):
    """The Name at the root of `a.b.c` / `a[0].b` (constant subscripts only), or None."""
    while True:
        if isinstance(node, ast.Attribute):
            node = node.value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            node = node.value
        elif isinstance(node, ast.Name):
            return node
        else:
            return None


def composite_stores(stmts, rebound=()):
    """Attributes and constant subscripts these statements assign (`o.v = ..`, `xs[0] += ..`),
    as (source text, expression) in order of first assignment, not descending into scopes.

    In a tensor loop or branch they are state like any local name: TensorFlow carries them as loop
    variables / branch outputs. Ones whose root name the statements (or `rebound`: a for loop's
    target) rebind are left out: the object itself changes."""
    found, rebound = {}, set(stores(stmts)) | set(rebound)

    def targets(n):
        if isinstance(n, (ast.Assign,)):
            return [t for tgt in n.targets for t in _unpack(tgt)]
        if isinstance(n, (ast.AugAssign, ast.AnnAssign)):
            return [n.target]
        return []

    def visit(n):
        if isinstance(n, _SCOPES):
            return
        for t in targets(n):
            if isinstance(t, (ast.Attribute, ast.Subscript)):
                root = _composite_root(t)
                if root is not None and root.id not in rebound and not root.id.startswith("ag__"):
                    text = ast.unparse(t)
                    found.setdefault(text, t)
        for child in ast.iter_child_nodes(n):
            visit(child)

    for s in _as_list(stmts):
        visit(s)
    return list(found.items())


def _unpack(target):
    if isinstance(target, (ast.Tuple, ast.List)):
        return [t for e in target.elts for t in _unpack(e)]
    if isinstance(target, ast.Starred):
        return _unpack(target.value)
    return [target]
