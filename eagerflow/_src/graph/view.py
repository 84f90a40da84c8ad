"""A drawable picture of a graph: nodes, edges and clusters, shared by every way of drawing it.

`build_view(graph)` walks a traced graph once and returns plain data: one node per operation (its
name, op type, output shapes, the user's file:line), one edge per input (labelled with the
tensor's dtype and shape), and one cluster per `cond` branch or `while_loop` condition/body (any
op attribute holding a traced sub-graph), nested as deep as the control flow is. The DOT writer
(graph/dot.py) and the Python layout (graph/layout.py) both read this, so they always agree on
what is drawn. Ids are local to one view (`n0`, `n1`, ... and `c0`, ...), never `id()`s, so the
same graph draws the same text every time.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Node:
    id: str
    name: str
    type: str
    outputs: list  # "(None, 10) float32" per output
    source: tuple | None = None  # (file, line) where the user's code created the op
    kind: str = "op"  # "op", "input" (a Placeholder), "const", or "output" (the graph's results)
    code_line: int | None = None  # the line of the generated Python that runs the op
    captured_as: str | None = None  # a variable's node: the name of the graph input that holds its handle

    @property
    def label_lines(self) -> list:
        """What the box says: the node name, its op type when the name does not already say it,
        then the output shape(s)."""
        lines = [self.name]
        if self.type and self.name.rsplit("/", 1)[-1].split("_")[0] != self.type:
            lines.append(self.type)
        shown = [o for o in self.outputs if not o.endswith(" variant")][:3]
        lines += shown
        return lines

    @property
    def tooltip(self) -> str:
        text = f"{self.type} '{self.name}'" if self.type else self.name
        if self.captured_as:
            text += f" (the graph reads it through its input '{self.captured_as}')"
        if self.source:
            text += f"\n{self.source[0]}:{self.source[1]}"
        return text


@dataclass
class Edge:
    src: str
    dst: str
    label: str  # "float32 (None, 10)"
    dashed: bool = False  # a capture into a sub-graph, or a sub-graph's result flowing to its op


@dataclass
class Cluster:
    id: str
    label: str
    nodes: list = field(default_factory=list)  # node ids directly inside
    clusters: list = field(default_factory=list)  # nested Clusters
    owner: str | None = None  # the node id of the control-flow op this sub-graph belongs to


@dataclass
class GraphView:
    name: str
    nodes: dict  # id -> Node, in program order
    edges: list
    root: Cluster
    code: str = ""  # the generated Python source, when known


def tensor_text(t) -> str:
    return f"{t.shape} {t.dtype.name}"


def edge_text(t) -> str:
    return f"{t.dtype.name} {t.shape}"


def sub_graphs(value):
    """The traced sub-graphs an attribute holds: a Branch (cond/while), a ConcreteFunction, or a
    list of them (case); anything else holds none."""
    from .graph import Graph
    items = value if isinstance(value, (list, tuple)) else [value]
    return [v for v in items if isinstance(getattr(v, "graph", None), Graph) and hasattr(v, "outputs")]


def _captured_variable(op, captured):
    """The tf.Variable whose handle a graph input captures, or None (an argument, or an outer graph's value)."""
    external = captured.get(id(op.outputs[0])) if op.outputs else None
    variable = getattr(external, "_value", None)
    if variable is None or not hasattr(variable, "_array") or not hasattr(variable, "name"):
        return None
    return variable


class _Builder:
    def __init__(self, code_lines):
        self.nodes = {}
        self.edges = []
        self.ids = {}  # id(op) -> node id; lives only while one view is built
        self.code_lines = code_lines or {}
        self.n_clusters = 0
        self.seen_graphs = set()

    def node_for(self, op) -> str:
        return self.ids.get(id(op))

    def add_graph(self, graph, cluster):
        self.seen_graphs.add(id(graph))
        captured = {id(ph): external for external, ph in graph.captures}
        for op in graph.get_operations():
            node_id = f"n{len(self.nodes)}"
            self.ids[id(op)] = node_id
            kind = {"Placeholder": "input", "Const": "const"}.get(op.type, "op")
            variable = _captured_variable(op, captured) if kind == "input" else None
            if variable is not None:  # the user's variable, by the name they gave it, not its handle's
                self.nodes[node_id] = Node(node_id, variable.name.split(":")[0], "Variable",
                                           [f"{variable.shape} {variable.dtype.name}"], None, "input",
                                           captured_as=op.name)
            else:
                self.nodes[node_id] = Node(node_id, op.name, op.type, [tensor_text(t) for t in op.outputs],
                                           op.source if kind != "input" else None, kind,
                                           self.code_lines.get(id(op)))
            cluster.nodes.append(node_id)
            for t in op.inputs:
                src = self.node_for(t.op)
                if src is not None:
                    self.edges.append(Edge(src, node_id, edge_text(t)))
            if kind == "input" and op.outputs and id(op.outputs[0]) in captured:
                src = self.node_for(getattr(captured[id(op.outputs[0])], "op", None))
                if src is not None:  # a sub-graph reading a value of its enclosing graph
                    self.edges.append(Edge(src, node_id, edge_text(op.outputs[0]), dashed=True))
            for attr, value in op.attrs.items():
                for sub in sub_graphs(value):
                    if id(sub.graph) not in self.seen_graphs:
                        self.add_sub_graph(op, attr, sub, node_id, cluster)

    def add_sub_graph(self, op, attr, sub, owner_id, parent):
        child = Cluster(f"c{self.n_clusters}", f"{op.name}: {attr}", owner=owner_id)
        self.n_clusters += 1
        parent.clusters.append(child)
        self.add_graph(sub.graph, child)
        for t in sub.outputs:
            src = self.node_for(t.op)
            if src is not None:
                self.edges.append(Edge(src, owner_id, edge_text(t), dashed=True))


def build_view(graph, generated=None) -> GraphView:
    """The view of `graph`; with `generated` (codegen's GeneratedFunction for it) each node also
    knows the generated line that runs it."""
    code_lines = {}
    if generated is not None:
        for line, op in generated.line_ops.items():
            code_lines.setdefault(id(op), line)
    builder = _Builder(code_lines)
    root = Cluster("root", getattr(graph, "name", "graph"))
    builder.add_graph(graph, root)
    if graph.outputs:
        out_id = f"n{len(builder.nodes)}"
        builder.nodes[out_id] = Node(out_id, "outputs", "", [tensor_text(t) for t in graph.outputs], kind="output")
        root.nodes.append(out_id)
        for t in graph.outputs:
            src = builder.node_for(t.op)
            if src is not None:
                builder.edges.append(Edge(src, out_id, edge_text(t)))
    return GraphView(root.label, builder.nodes, builder.edges, root,
                     generated.source if generated is not None else "")
