"""Calls: builtins that need tensors' help, list appends, and calls into user code.

- `len(x)` -> `ag__.len_(x)`: a tensor of unknown length gives `tf.shape(x)[0]`.
- `range(n)` -> `ag__.range_(n)`: a tensor bound gives `tf.range` (so `for` over it becomes a loop op).
- `xs.append(v)` on a local list -> `xs = ag__.list_append(xs, v)`: the list becomes an assignment,
  so a tensor loop sees it as a loop variable (a Python list is still appended in place).
  Beyond TensorFlow on purpose: in a tensor loop the list is carried as one stacked tensor
  (operators.TensorList), so `tf.stack(xs)` after the loop has every iteration's item; TF 2.21
  raises InaccessibleTensorError there and asks for a tf.TensorArray.
- `tf.stack(xs)` of such a list -> `ag__.list_stack(tf.stack, xs)`.
- calls of user functions -> `ag__.convert(f)(...)`, converted at call time. Calls through modules
  (`tf.x`, `np.x`) and of builtins stay as they are, so the output reads like the input.
"""
from __future__ import annotations

import ast
import types

from .. import analysis
from ..templates import replace, replace_expr


class _Calls(ast.NodeTransformer):
    def __init__(self, ctx, local_names, appended):
        self.ctx, self.local_names, self.appended = ctx, local_names, appended

    def visit_FunctionDef(self, node):
        return node  # nested functions are converted as their own scope

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

    def visit_Expr(self, node):
        call = node.value
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append"
                and isinstance(call.func.value, ast.Name) and call.func.value.id in self.local_names
                and len(call.args) == 1 and not call.keywords):
            name = call.func.value.id
            self.appended.add(name)
            value = self.visit(call.args[0])
            return replace("xs = ag__.list_append(xs, value)", at=node, xs=name, value=value)
        self.generic_visit(node)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id not in self.local_names:
            target = self.ctx.resolve(func.id)
            if func.id in ("len", "range") and target is self.ctx.builtin(func.id):
                node.func = replace_expr(f"ag__.{func.id}_", at=node)
                return node
            if self.ctx.is_user_callable(target):
                node.func = replace_expr("ag__.convert(f)", at=node, f=func)
            return node
        if isinstance(func, ast.Name):  # a local: known only at run time
            node.func = replace_expr("ag__.convert(f)", at=node, f=func)
            return node
        if isinstance(func, ast.Attribute):
            if (func.attr == "stack" and node.args and isinstance(node.args[0], ast.Name)
                    and node.args[0].id in self.appended):
                return replace_expr("ag__.list_stack(f, args)", at=node, f=func, args=node.args[0]) if len(
                    node.args) == 1 and not node.keywords else _with_args(node, func)
            # A method of an object (`model.loss(x)`, `self.encoder.encode(x)`, `Helper.build(x)`)
            # may be user code: converted at call time, where its function says whether it is.
            # Calls through library modules (`tf.x`, `np.x`, `math.x`) stay as they are.
            root, returned = func.value, False
            while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
                returned |= isinstance(root, ast.Call)  # the object is a call's result (`super().f`)
                root = root.func if isinstance(root, ast.Call) else root.value
            if not isinstance(root, ast.Name):
                return node
            if root.id in self.local_names or root.id == self.ctx.self_name:
                node.func = replace_expr("ag__.convert(f)", at=node, f=func)
                return node
            target = self.ctx.resolve(root.id)
            if isinstance(target, types.ModuleType) and not self.ctx.is_user_module(target):
                return node
            if target is self.ctx._MISSING or (self.ctx.is_library_value(target) and not returned):
                return node
            node.func = replace_expr("ag__.convert(f)", at=node, f=func)
        return node


def _with_args(node, func):
    call = replace_expr("ag__.list_stack(f)", at=node, f=func)
    call.args += node.args
    call.keywords = node.keywords
    return call


def convert(func, ctx):
    local_names = set(analysis.stores(func.body)) | {a.arg for a in _all_args(func.args)}
    local_names -= analysis.declared(func)
    appended = set()
    # Two passes: appends first, so a `tf.stack(xs)` anywhere sees which names are appended lists.
    for stmt in ast.walk(func):
        if (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
                and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == "append"
                and isinstance(stmt.value.func.value, ast.Name) and stmt.value.func.value.id in local_names):
            appended.add(stmt.value.func.value.id)
    t = _Calls(ctx, local_names, appended)
    func.body = [r for s in func.body for r in _as_list(t.visit(s))]


def _as_list(x):
    return x if isinstance(x, list) else [x]


def _all_args(args):
    out = list(args.posonlyargs) + list(args.args) + list(args.kwonlyargs)
    if args.vararg:
        out.append(args.vararg)
    if args.kwarg:
        out.append(args.kwarg)
    return out
