"""Calls: builtins that need tensors' help, list appends, and calls into user code.

- `len(x)` -> `ag__.len_(x)`: a tensor of unknown length gives `tf.shape(x)[0]`.
- `range(n)` -> `ag__.range_(n)`: a tensor bound gives `tf.range` (so `for` over it becomes a loop op).
- `xs.append(v)` on a local list -> `xs = ag__.list_append(xs, v)`: the list becomes an assignment,
  so a tensor loop sees it as a loop variable (a Python list is still appended in place).
  Beyond TensorFlow on purpose: in a tensor loop the list is carried as one stacked tensor
  (operators.TensorList), so `tf.stack(xs)` after the loop has every iteration's item; TF 2.21
  raises InaccessibleTensorError there and asks for a tf.TensorArray.
- `tf.stack(xs)` of such a list -> `ag__.list_stack(tf.stack, xs)`.
- calls of user code -> `ag__.convert(f)(...)`, converted at call time: user functions, methods and
  lambdas whatever the call's form (by name, through a user module's attribute, an object, a
  container's item or a call's result), `functools.partial`s of them and objects whose class
  defines `__call__`. Calls through library modules (`tf.x`, `np.x`) and of builtins and library
  functions and classes stay as they are, so the output reads like the input; a class is called as
  it is (its `__init__` is not converted), as in TensorFlow.
"""
from __future__ import annotations

import ast
import types

from .. import analysis, as_is
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
        # Decided on the call as written, before its inner calls are rewritten: `make(x).f()` is
        # rooted at `make`, not at the `ag__.convert` its inner call becomes.
        wrap = self._may_call_user_code(node.func)
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("len", "range") and func.id not in self.local_names:
            if self.ctx.resolve(func.id) is self.ctx.builtin(func.id):
                node.func = replace_expr(f"ag__.{func.id}_", at=node)
                return node
        if (isinstance(func, ast.Attribute) and func.attr == "stack" and node.args
                and isinstance(node.args[0], ast.Name) and node.args[0].id in self.appended):
            return replace_expr("ag__.list_stack(f, args)", at=node, f=func, args=node.args[0]) if len(
                node.args) == 1 and not node.keywords else _with_args(node, func)
        if wrap:
            node.func = replace_expr("ag__.convert(f)", at=node, f=func)
        return node

    def _may_call_user_code(self, func):
        """Whether the callee `func` (an expression) may be user code, to be converted at call time."""
        if isinstance(func, ast.Name):
            if func.id in self.local_names:
                return True  # a local: known only at run time
            return self.ctx.is_user_callable(self.ctx.resolve(func.id))
        if isinstance(func, (ast.Subscript, ast.Call)):
            # `table["f"](x)`, `handlers[i](x)`, `make()(x)`, `functools.partial(f, k=2)(x)`: what
            # is called is known only at run time, where a user function, partial or callable
            # object is converted and anything else is called as it is
            return True
        if not isinstance(func, ast.Attribute):
            return False
        # A method of an object (`model.loss(x)`, `self.encoder.encode(x)`, `Helper.build(x)`,
        # `mymodule.helper(x)`) may be user code: converted at call time, where its function says
        # whether it is. Calls through library modules (`tf.x`, `np.x`, `math.x`) and methods of
        # library values named directly (`Dense.__call__`, `optimizer.apply_gradients`) stay as
        # they are.
        root, indirect, names = func.value, False, [func.attr]
        while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
            # a call's result (`super().f`, `make().f`) or a container's item (`table[k].f`): what
            # it is shows only at run time
            indirect |= isinstance(root, (ast.Call, ast.Subscript))
            if isinstance(root, ast.Attribute):
                names.append(root.attr)
            root = root.func if isinstance(root, ast.Call) else root.value
        if not isinstance(root, ast.Name):
            return False
        if root.id in self.local_names or root.id == self.ctx.self_name:
            return True
        target = self.ctx.resolve(root.id)
        if isinstance(target, types.ModuleType):
            return self.ctx.is_user_module(target)
        if target is self.ctx._MISSING:
            return False
        if self.ctx.is_library_value(target) and not indirect:
            # a library value's attribute, looked up without running its code: a user function kept
            # on a library object (`config.activation(x)`, a SimpleNamespace) is converted
            for name in reversed(names):
                target = as_is.static_attribute(target, name)
            return self.ctx.is_user_callable(target)
        return True


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
