"""A graph as Graphviz DOT text (`graph.to_dot()`), from the view in graph/view.py.

Each op is a box saying its name, op type and output shape, with the user's file:line as its
tooltip; each edge carries the tensor's dtype and shape; `cond` branches and `while_loop` bodies are
`cluster_` sub-graphs (Graphviz draws them as framed groups), and their results reach their op
along dashed edges. Every node and cluster has an `id`, kept by Graphviz in the SVG it writes, so
the HTML page can find a node by the same id whichever layout drew it.
"""
from __future__ import annotations

from .view import build_view

_STYLE = {
    "op": 'shape=box, style="rounded,filled", fillcolor="#e8f0fe", color="#4a6fa5"',
    "input": 'shape=ellipse, style=filled, fillcolor="#e6f4ea", color="#3c8d50"',
    "const": 'shape=box, style=filled, fillcolor="#f1f3f4", color="#9aa0a6", fontsize=9',
    "output": 'shape=doubleoctagon, style=filled, fillcolor="#fef7e0", color="#b08800"',
}


def quote(text: str) -> str:
    """A DOT string literal: backslashes and quotes escaped, newlines as DOT's centred `\\n`."""
    text = str(text).replace("\\", "\\\\").replace('"', '\\"')
    return '"' + text.replace("\r", "").replace("\n", "\\n") + '"'


def view_to_dot(view) -> str:
    lines = [f"digraph {quote(view.name)} {{",
             '  graph [rankdir=TB, fontname="Helvetica", fontsize=10, newrank=true];',
             '  node [fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=8, color="#5f6368", fontcolor="#5f6368"];']
    _cluster_body(view, view.root, lines, "  ")
    for e in view.edges:
        style = ', style=dashed' if e.dashed else ''
        lines.append(f"  {e.src} -> {e.dst} [label={quote(e.label)}, tooltip={quote(e.label)}{style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _cluster_body(view, cluster, lines, indent):
    for node_id in cluster.nodes:
        node = view.nodes[node_id]
        lines.append(f"{indent}{node_id} [id={quote(node_id)}, label={quote(chr(10).join(node.label_lines))}, "
                     f"tooltip={quote(node.tooltip)}, {_STYLE[node.kind]}];")
    for child in cluster.clusters:
        lines.append(f"{indent}subgraph cluster_{child.id} {{")
        lines.append(f"{indent}  id={quote(child.id)}; label={quote(child.label)}; style=\"rounded,dashed\"; "
                     f"color=\"#9aa0a6\";")
        _cluster_body(view, child, lines, indent + "  ")
        lines.append(f"{indent}}}")


def graph_to_dot(graph, generated=None) -> str:
    """DOT text for `graph` (see the module docstring)."""
    return view_to_dot(build_view(graph, generated))
