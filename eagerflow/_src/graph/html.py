"""A graph as one self-contained, interactive HTML page (`graph.to_html()`, `eagerflow graph -o x.html`).

Everything is inline: the SVG drawing, a small script and the node data as JSON; no server, no CDN,
so the file opens offline from disk. It opens with the whole graph in view when its labels stay readable (else at
readable size, from the inputs down); drag to pan, wheel to zoom, `Fit` to see it all; clicking a node shows
its op type, outputs, the user's file:line and the generated Python line that runs it, highlighted
in the full listing. The drawing comes from Graphviz when it is installed (layout='dot') and from
graph/layout.py otherwise (layout='python'); both give nodes the same ids, so one script serves both.
Opening `page.html#n3` selects node n3 on load (handy for links, and what the browser test uses).
"""
from __future__ import annotations

import json
from html import escape

from .dot import view_to_dot
from .layout import view_to_svg
from .view import build_view


def _svg_for(view, layout):
    if layout not in ("auto", "dot", "python"):
        raise ValueError(f"layout must be 'auto', 'dot' or 'python', got {layout!r}")
    if layout != "python":
        from .render import dot_to_image
        try:
            svg = dot_to_image(view_to_dot(view), "svg").decode("utf-8")
            return svg[svg.index("<svg"):], "dot"  # drop the XML prolog and DOCTYPE
        except (ImportError, RuntimeError):
            if layout == "dot":
                raise
    return view_to_svg(view), "python"


def _node_data(view):
    lines = view.code.splitlines()
    data = {}
    for node in view.nodes.values():
        line = node.code_line
        data[node.id] = {
            "name": node.name, "type": node.type, "outputs": node.outputs,
            "source": f"{node.source[0]}:{node.source[1]}" if node.source else None,
            "line": line, "code": lines[line - 1].strip() if line and line <= len(lines) else None,
        }
    return data


def _script_json(value) -> str:
    # "</" would end the <script> element early; JSON allows "<\/" for the same string.
    return json.dumps(value).replace("</", "<\\/")


def graph_to_html(graph, generated=None, layout="auto") -> str:
    view = build_view(graph, generated)
    svg, used = _svg_for(view, layout)
    payload = {"nodes": _node_data(view), "code": view.code.splitlines(), "layout": used}
    return _PAGE.replace("__TITLE__", escape(view.name)).replace("__SVG__", svg) \
        .replace("__DATA__", _script_json(payload))


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__ - eagerflow graph</title>
<style>
body { margin: 0; font-family: Helvetica, Arial, sans-serif; display: flex; height: 100vh; }
#canvas { flex: 1; overflow: hidden; position: relative; cursor: grab; background: #fff; }
#canvas.dragging { cursor: grabbing; }
#canvas > svg { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
#side { width: 380px; border-left: 1px solid #dadce0; display: flex; flex-direction: column; font-size: 13px; }
#side h1 { font-size: 15px; margin: 10px 12px 4px; }
#details { padding: 4px 12px 10px; border-bottom: 1px solid #dadce0; min-height: 90px; }
#details .key { color: #5f6368; }
#code { flex: 1; overflow: auto; margin: 0; padding: 6px 0; font: 11px/1.45 Menlo, Consolas, monospace; }
#code div { white-space: pre; padding: 0 8px; }
#code div.hit { background: #fde68a; }
#code span.no { color: #9aa0a6; display: inline-block; width: 3em; }
#bar { position: absolute; left: 8px; top: 8px; z-index: 1; }
g.node { cursor: pointer; }
g.node.selected rect, g.node.selected polygon, g.node.selected ellipse, g.node.selected path
  { stroke: #d93025; stroke-width: 3px; }
</style></head><body>
<div id="canvas"><div id="bar"><button id="fit">Fit</button></div>
__SVG__
</div>
<div id="side"><h1>__TITLE__</h1><div id="details">Click a node to see what runs it.</div>
<pre id="code"></pre></div>
<script id="graph-data" type="application/json">__DATA__</script>
<script>
(function () {
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var canvas = document.getElementById("canvas"), svg = canvas.querySelector("svg");
  var code = document.getElementById("code"), details = document.getElementById("details");
  var view = {x: 0, y: 0, k: 1};
  var READABLE = 1.1;  // the smallest opening zoom: 10 px labels show at 11 px (Fit shows the whole graph)
  function apply() { svg.style.transform = "translate(" + view.x + "px," + view.y + "px) scale(" + view.k + ")"; }
  function fit() {
    var w = svg.width.baseVal.value || 1, h = svg.height.baseVal.value || 1;
    view.k = Math.min(canvas.clientWidth / w, canvas.clientHeight / h, 1.5) * 0.95;
    view.x = (canvas.clientWidth - w * view.k) / 2; view.y = 10; apply();
  }
  data.code.forEach(function (text, i) {
    var row = document.createElement("div"), no = document.createElement("span");
    no.className = "no"; no.textContent = i + 1; row.appendChild(no);
    row.appendChild(document.createTextNode(text)); row.id = "line-" + (i + 1); code.appendChild(row);
  });
  function field(key, value) {
    var div = document.createElement("div"), k = document.createElement("span");
    k.className = "key"; k.textContent = key + ": "; div.appendChild(k);
    div.appendChild(document.createTextNode(value)); details.appendChild(div);
  }
  function select(id) {
    var info = data.nodes[id]; if (!info) return;
    Array.prototype.forEach.call(svg.querySelectorAll("g.node.selected, #code div.hit"), function (el) {
      el.classList.remove(el.tagName === "DIV" ? "hit" : "selected"); });
    var g = document.getElementById(id); if (g) g.classList.add("selected");
    details.textContent = "";
    field("node", info.name); field("op", info.type || "(the function's results)");
    field("outputs", info.outputs.join(", ") || "none");
    field("defined at", info.source || "(not in user code)");
    field("generated code", info.line ? "line " + info.line + ": " + info.code
          : "no line of its own (folded, merged or inlined by the passes, or an input)");
    details.setAttribute("data-selected", id);
    if (info.line) { var row = document.getElementById("line-" + info.line);
      row.classList.add("hit"); row.scrollIntoView({block: "center"}); }
  }
  Array.prototype.forEach.call(svg.querySelectorAll("g.node"), function (g) {
    g.addEventListener("click", function (ev) { ev.stopPropagation(); select(g.id); });
  });
  var drag = null;
  canvas.addEventListener("mousedown", function (ev) {
    if (ev.target.closest("#bar")) return;  // the Fit button is not a drag handle
    drag = {x: ev.clientX - view.x, y: ev.clientY - view.y}; canvas.classList.add("dragging"); });
  window.addEventListener("mousemove", function (ev) {
    if (drag) { view.x = ev.clientX - drag.x; view.y = ev.clientY - drag.y; apply(); } });
  window.addEventListener("mouseup", function () { drag = null; canvas.classList.remove("dragging"); });
  canvas.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    var r = canvas.getBoundingClientRect(), px = ev.clientX - r.left, py = ev.clientY - r.top;
    var k = Math.max(0.05, Math.min(20, view.k * Math.exp(-ev.deltaY * 0.0015)));
    view.x = px - (px - view.x) * k / view.k; view.y = py - (py - view.y) * k / view.k; view.k = k; apply();
  }, {passive: false});
  document.getElementById("fit").addEventListener("click", fit);
  function open() {  // the whole graph when its text stays readable; else readable text, from the inputs down
    var w = svg.width.baseVal.value || 1, h = svg.height.baseVal.value || 1;
    if (Math.min(canvas.clientWidth / w, canvas.clientHeight / h, 1.5) * 0.95 >= READABLE) { fit(); return; }
    view.k = READABLE; view.y = 10;
    view.x = w * view.k <= canvas.clientWidth ? (canvas.clientWidth - w * view.k) / 2 : 10; apply();
  }
  open();
  if (location.hash.length > 1) select(location.hash.slice(1));
})();
</script></body></html>
"""
