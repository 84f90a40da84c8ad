"""eagerflow's own drawing of a graph view as SVG, for when Graphviz is not installed.

A simple layered layout, done per cluster from the inside out: a cluster (a cond branch, a loop
body) is laid out first and then placed in its parent as one big box, so sub-graphs stay framed
and never interleave. Within one cluster: every item gets the layer one below its deepest
predecessor (longest path), items in a layer are ordered by the mean position of their
predecessors (two sweeps of the barycenter heuristic), then packed left to right and centred.
Edges are cubic curves from the bottom of the producer to the top of the consumer, labelled with
dtype and shape. The SVG uses the node ids of the view, like Graphviz's, so the page's script
works on either.
"""
from __future__ import annotations

from html import escape

CHAR_W, LINE_H, PAD, GAP_X, GAP_Y, TITLE_H = 6.6, 13, 8, 24, 40, 18

_FILL = {"op": ("#e8f0fe", "#4a6fa5"), "input": ("#e6f4ea", "#3c8d50"), "const": ("#f1f3f4", "#9aa0a6"),
         "output": ("#fef7e0", "#b08800")}


class _Box:
    """A laid-out item: a node or a whole cluster, with its size and (once placed) its offset."""

    def __init__(self, key, w, h, cluster=None):
        self.key, self.w, self.h, self.cluster = key, w, h, cluster
        self.x = self.y = 0.0
        self.children = []  # for a cluster: its placed boxes


def _node_box(node):
    lines = node.label_lines
    return _Box(node.id, max(len(t) for t in lines) * CHAR_W + 2 * PAD, len(lines) * LINE_H + 2 * PAD)


def _owner_map(cluster, owner=None, out=None):
    """node id -> the id of the top-level item (node or cluster) of `cluster` containing it."""
    out = {} if out is None else out
    for n in cluster.nodes:
        out[n] = owner or n
    for child in cluster.clusters:
        _owner_map(child, owner or child.id, out)
    return out


def _lay_out(view, cluster) -> _Box:
    items = {}
    order = []
    for child in cluster.clusters:  # a sub-graph goes just before the op that runs it
        items[child.id] = _lay_out(view, child)
    for n in cluster.nodes:
        for child in cluster.clusters:
            if child.owner == n:
                order.append(child.id)
        items[n] = _node_box(view.nodes[n])
        order.append(n)
    order += [c.id for c in cluster.clusters if c.id not in order]
    owner = _owner_map(cluster)
    preds = {k: [] for k in order}
    for e in view.edges:
        a, b = owner.get(e.src), owner.get(e.dst)
        if a is not None and b is not None and a != b and a not in preds[b]:
            preds[b].append(a)
    for child in cluster.clusters:  # what feeds the op feeds its body: draw the body below its op's inputs
        preds[child.id] += [p for p in preds.get(child.owner, ()) if p not in preds[child.id] and p in items
                            and items[p].cluster is None]
    position = {k: i for i, k in enumerate(order)}
    layer = {}
    for k in order:  # program order is topological, except for a loop body's result into its op
        layer[k] = max((layer[p] + 1 for p in preds[k] if p in layer and position[p] < position[k]), default=0)
    rows = [[] for _ in range(max(layer.values(), default=-1) + 1)]
    for k in order:
        rows[layer[k]].append(k)
    index = {}
    for sweep in range(2):
        for row in rows:
            if sweep or index:
                row.sort(key=lambda k: _barycenter(k, preds, index, position))
            for i, k in enumerate(row):
                index[k] = i
    box = _Box(cluster.id, 0, 0, cluster)
    y = TITLE_H if cluster.id != "root" else PAD
    widths = [sum(items[k].w for k in row) + GAP_X * (len(row) - 1) for row in rows]
    width = max(widths, default=0)
    for row, row_w in zip(rows, widths):
        x = (width - row_w) / 2 + PAD
        height = max(items[k].h for k in row)
        for k in row:
            item = items[k]
            item.x, item.y = x, y + (height - item.h) / 2
            x += item.w + GAP_X
            box.children.append(item)
        y += height + GAP_Y
    box.w, box.h = width + 2 * PAD, y - GAP_Y + PAD
    return box


def _barycenter(k, preds, index, position):
    placed = [index[p] for p in preds[k] if p in index]
    return (sum(placed) / len(placed) if placed else index.get(k, 0), position[k])


def _place(box, dx, dy, where):
    """Absolute positions: node id -> (x, y, w, h); cluster id -> the same."""
    for child in box.children:
        x, y = dx + child.x, dy + child.y
        where[child.key] = (x, y, child.w, child.h)
        if child.cluster is not None:
            _place(child, x, y, where)


def view_to_svg(view) -> str:
    root = _lay_out(view, view.root)
    where = {}
    _place(root, 0, 0, where)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{root.w:.0f}" height="{root.h:.0f}" '
             f'viewBox="0 0 {root.w:.0f} {root.h:.0f}" font-family="Helvetica, Arial, sans-serif">',
             '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
             'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#5f6368"/></marker></defs>']
    _draw_clusters(view.root, where, parts)
    for e in view.edges:
        parts.append(_edge_svg(e, where))
    for node in view.nodes.values():
        parts.append(_node_svg(node, where[node.id]))
    parts.append("</svg>")
    return "\n".join(parts)


def _draw_clusters(cluster, where, parts):
    for child in cluster.clusters:
        x, y, w, h = where[child.id]
        parts.append(f'<g class="cluster" id="{child.id}"><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
                     f'height="{h:.1f}" rx="6" fill="none" stroke="#9aa0a6" stroke-dasharray="4 3"/>'
                     f'<text x="{x + 6:.1f}" y="{y + 13:.1f}" font-size="10" fill="#5f6368">'
                     f'{escape(child.label)}</text></g>')
        _draw_clusters(child, where, parts)


def _edge_svg(edge, where):
    sx, sy, sw, sh = where[edge.src]
    tx, ty, tw, _ = where[edge.dst]
    x1, y1, x2, y2 = sx + sw / 2, sy + sh, tx + tw / 2, ty
    if y2 <= y1:  # a loop body's result back up into its op: leave from the side
        x1, y1 = sx + sw, sy + sh / 2
    bend = max(20.0, abs(y2 - y1) / 2)
    dash = ' stroke-dasharray="5 3"' if edge.dashed else ""
    label = escape(edge.label)
    return (f'<g class="edge"><title>{label}</title><path d="M{x1:.1f},{y1:.1f} C{x1:.1f},{y1 + bend:.1f} '
            f'{x2:.1f},{y2 - bend:.1f} {x2:.1f},{y2:.1f}" fill="none" stroke="#5f6368" stroke-width="1"{dash} '
            f'marker-end="url(#arrow)"/><text x="{(x1 + x2) / 2 + 3:.1f}" y="{(y1 + y2) / 2:.1f}" font-size="8" '
            f'fill="#80868b">{label}</text></g>')


def _node_svg(node, box):
    x, y, w, h = box
    fill, stroke = _FILL[node.kind]
    radius = h / 2 if node.kind == "input" else 4
    texts = []
    for i, line in enumerate(node.label_lines):
        weight = ' font-weight="bold"' if i == 0 else ""
        texts.append(f'<text x="{x + w / 2:.1f}" y="{y + PAD + LINE_H * (i + 1) - 3:.1f}" font-size="10" '
                     f'text-anchor="middle"{weight}>{escape(line)}</text>')
    return (f'<g class="node" id="{node.id}"><title>{escape(node.tooltip)}</title>'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{radius:.1f}" fill="{fill}" '
            f'stroke="{stroke}"/>{"".join(texts)}</g>')
