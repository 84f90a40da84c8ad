"""The interactive HTML page (graph/html.py) and eagerflow's own layout (graph/layout.py)."""
import html
import json
import re
import sys

import pytest

from eagerflow._src.graph.html import _script_json

from .browser import SKIP_REASON, find_browser, run_browser
from .drawing_fixtures import branchy_cf, dense_cf

RECT = re.compile(r'<g class="(node|cluster)" id="(\w+)">(?:<title>[^<]*</title>)?<rect x="([\d.]+)" '
                  r'y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"')


def _data(page):
    found = re.search(r'<script id="graph-data" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(found.group(1))


def _boxes(page):
    return {(kind, key): tuple(map(float, rest)) for kind, key, *rest in RECT.findall(page)}


def test_page_is_self_contained():
    page = branchy_cf().graph.to_html(layout="python")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert not re.search(r"<(script|link|img)[^>]*\b(src|href)=", page)  # nothing fetched
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in page


def test_each_node_knows_the_generated_line_that_runs_it():
    cf = dense_cf()
    data = _data(cf.graph.to_html(layout="python"))
    code = cf.code.splitlines()
    assert data["code"] == code and data["layout"] == "python"
    by_name = {n["name"]: n for n in data["nodes"].values()}
    for name in ("MatMul", "Relu"):
        line = by_name[name]["line"]
        assert code[line - 1].strip() == by_name[name]["code"]
        assert code[line - 1].lstrip().startswith(f"{name} = ")
    assert by_name["x"]["line"] is None and by_name["x"]["source"] is None
    assert by_name["MatMul"]["source"].endswith("drawing_fixtures.py:9")


def test_loop_body_nodes_point_into_the_inlined_loop():
    cf = branchy_cf()
    data = _data(cf.graph.to_html(layout="python"))
    add = next(n for n in data["nodes"].values() if n["name"] == "add")
    code = cf.code.splitlines()
    assert code[add["line"] - 1].strip().startswith("add = ")
    assert any(line.strip() == "while True:" for line in code[:add["line"]])


def test_script_data_cannot_close_the_script_element():
    assert _script_json({"a": "</script><b>"}) == '{"a": "<\\/script><b>"}'


def test_python_layout_keeps_nodes_apart_and_inside_their_clusters():
    page = branchy_cf().graph.to_html(layout="python")
    boxes = _boxes(page)
    nodes = {k: v for (kind, k), v in boxes.items() if kind == "node"}
    assert len(nodes) == len(_data(page)["nodes"])
    items = list(nodes.items())
    for i, (a, (ax, ay, aw, ah)) in enumerate(items):
        for b, (bx, by, bw, bh) in items[i + 1:]:
            apart = ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay
            assert apart, f"{a} overlaps {b}"
    dot_text = branchy_cf().graph.to_dot()
    for cluster_id, body in re.findall(r'subgraph cluster_(c\d+) \{(.*?)\n  \}', dot_text, re.S):
        cx, cy, cw, ch = boxes[("cluster", cluster_id)]
        for node_id in re.findall(r'^\s*(n\d+) \[', body, re.M):
            x, y, w, h = nodes[node_id]
            assert cx <= x and x + w <= cx + cw and cy <= y and y + h <= cy + ch, (cluster_id, node_id)


def test_unknown_layout_is_refused():
    with pytest.raises(ValueError, match="layout must be 'auto', 'dot' or 'python'"):
        dense_cf().graph.to_html(layout="spring")


def test_auto_layout_falls_back_to_python_without_graphviz(monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    assert _data(dense_cf().graph.to_html())["layout"] == "python"
    with pytest.raises(ImportError, match="graphviz"):
        dense_cf().graph.to_html(layout="dot")


@pytest.mark.skipif(find_browser() is None, reason=SKIP_REASON)
@pytest.mark.parametrize("layout", ["python", "auto"])
def test_page_runs_in_a_real_browser_and_a_click_shows_the_generated_line(tmp_path, layout):
    cf = branchy_cf()
    path = tmp_path / "graph.html"
    cf.graph.render(path, layout=layout)
    data = _data(path.read_text())
    node_id, node = next((k, n) for k, n in data["nodes"].items() if n["name"] == "mul")
    # `#id` selects that node on load through the same function a click calls.
    result = run_browser("--dump-dom", f"file://{path}#{node_id}")
    dom = result.stdout
    assert f'data-selected="{node_id}"' in dom, result.stderr[-2000:]
    details = dom.split('id="details"')[1].split("</div></div>")[0]
    assert "Mul" in details and f"line {node['line']}: " in details
    assert node["code"] in html.unescape(details)
    assert re.search(rf'<div id="line-{node["line"]}" class="hit">', dom)
    assert re.search(rf'<g id="{node_id}" class="node selected"|<g class="node selected" id="{node_id}"', dom)
    assert 'style="transform: translate(' in dom  # the fit ran: pan/zoom is live
    # It opens with readable labels: never below 1.1x (10 px labels at 11 px), whether or not all of it fits.
    assert float(re.search(r"scale\(([\d.]+)\)", dom).group(1)) >= 1.1
