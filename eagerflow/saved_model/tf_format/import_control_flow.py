"""TensorFlow's If/StatelessIf and While/StatelessWhile, imported as eagerflow's control-flow ops over
branches rebuilt from the library's functions (FunctionImporter's part for them; import_case.py builds
Case on the same pieces)."""
from __future__ import annotations

from ..._src.control_flow.subgraph import Branch, share_externals
from ..._src.graph.graph import Graph
from ..._src.ops.registry import OPS
from .import_tables import ImportedTable
from .tf_values import dtype_of


class ControlFlowImport:
    def _branch(self, graph, fname, values, explicit, where, kept=None):
        """A Branch for function `fname` inside `graph`: the arguments at positions `explicit` are
        its placeholders (loop variables, in that order), the others capture the given outer values;
        `kept`: the positions of the outputs it returns (default all)."""
        fdef = self.function(fname)
        args = list(fdef.signature.input_arg)
        if len(args) != len(values):
            raise self.fail(where, f"function {fname!r} takes {len(args)} arguments, the op passes {len(values)}")
        sub = Graph(fname, outer=graph)
        refs, placeholders = {}, {}
        for i, (arg, value) in enumerate(zip(args, values)):
            if dtype_of(arg.type) is not value.dtype:
                raise self.fail(where, f"function {fname!r} argument {i} is not {value.dtype.name}")
            if isinstance(value, ImportedTable) and i not in explicit:
                refs[arg.name] = value
                continue
            if i in explicit:
                ph = placeholders[i] = sub.placeholder(value.dtype, value.shape, f"{fname}_input_{i}",
                                                       _variable_spec(value))
            else:
                ph = sub.capture(value)
            refs[arg.name] = ph
        outputs = self._body(sub, fdef, refs, f"{where} -> function {fname!r}")
        outputs = outputs if kept is None else [outputs[i] for i in kept]
        sub.outputs = outputs
        sub.finalize_names()
        try:
            return Branch.from_graph(sub, [placeholders[i] for i in explicit], outputs, list(outputs), fname), fdef
        except Exception as err:
            raise self.fail(where, f"function {fname!r} cannot be compiled ({type(err).__name__}: "
                                   f"{str(err)[:200]})") from None

    def _if(self, graph, node, inputs, where):
        if not inputs:
            raise self.fail(where, "an If without its predicate")
        then_b, _ = self._branch(graph, self._func_attr(node, "then_branch", where), inputs[1:], [], where)
        else_b, _ = self._branch(graph, self._func_attr(node, "else_branch", where), inputs[1:], [], where)
        if [t.dtype for t in then_b.outputs] != [t.dtype for t in else_b.outputs]:
            raise self.fail(where, "the branches return different dtypes")
        return self.if_op(graph, inputs[0], then_b, else_b, node.name, where)

    def if_op(self, graph, predicate, then_b, else_b, name, where):
        """eagerflow's If over two rebuilt branches; (output groups, op)."""
        externals, stateful = share_externals(then_b, else_b)
        specs = [(a.shape.most_specific_compatible_shape(b.shape), a.dtype)
                 for a, b in zip(then_b.outputs, else_b.outputs)]
        op = self.add_op(graph, OPS["If" if stateful else "StatelessIf"], [predicate, *externals],
                         {"then_branch": then_b, "else_branch": else_b, "output_specs": specs}, name, where)
        return {"output": list(op.outputs[:-1])}, op

    def _while(self, graph, node, inputs, where):
        """TensorFlow's While carries every value through its body; the ones the body returns
        unchanged become captured values of eagerflow's While, the others its loop variables."""
        body_name = self._func_attr(node, "body", where)
        body_fdef = self.function(body_name)
        names = [a.name for a in body_fdef.signature.input_arg]
        rets = [body_fdef.ret.get(a.name) for a in body_fdef.signature.output_arg]
        if len(rets) != len(inputs) or len(names) != len(inputs):
            raise self.fail(where, "a While's body must take and return every loop value")
        carried = [i for i in range(len(inputs)) if rets[i] != names[i]]
        if any(isinstance(inputs[i], ImportedTable) for i in carried):
            raise self.fail(where, "a While's body changes which lookup table it carries")
        cond_b, _ = self._branch(graph, self._func_attr(node, "cond", where), inputs, carried, where)
        body_b, _ = self._branch(graph, body_name, inputs, carried, where, kept=carried)
        if len(cond_b.outputs) != 1 or cond_b.outputs[0].dtype.name != "bool":
            raise self.fail(where, "a While's condition must return one boolean")
        loop_vars = [inputs[i] for i in carried]
        for t, v in zip(body_b.outputs, loop_vars):
            if t.dtype is not v.dtype:
                raise self.fail(where, "a While's body changes a loop value's dtype")
        externals, stateful = share_externals(cond_b, body_b)
        specs = [(v.shape.most_specific_compatible_shape(t.shape), v.dtype) for v, t in zip(loop_vars, body_b.outputs)]
        op = self.add_op(graph, OPS["While" if stateful else "StatelessWhile"], [*loop_vars, *externals],
                       {"cond": cond_b, "body": body_b, "n_vars": len(carried), "output_specs": specs},
                       node.name, where)
        position = {i: k for k, i in enumerate(carried)}
        return {"output": [op.outputs[position[i]] if i in position else inputs[i] for i in range(len(inputs))]}, op


def _variable_spec(value):
    """The (shape, dtype) of the variable a resource value points to, when its placeholder knows it."""
    op = getattr(value, "_op", None)
    spec = op.attrs.get("variable_spec") if op is not None and op.type == "Placeholder" else None
    return spec if spec else None
