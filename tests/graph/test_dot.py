"""Graph -> Graphviz DOT (graph/view.py, graph/dot.py) and rendering through Graphviz (graph/render.py)."""
import gc
import re
import shutil
import subprocess
import sys
import types
import weakref

import pytest

import eagerflow as tf
from eagerflow._src.graph.dot import quote
from eagerflow._src.graph.render import format_of

from .drawing_fixtures import branchy, branchy_cf, dense, dense_cf, line_of

NODE = re.compile(r'^\s*(n\d+) \[id="n\d+", label="((?:[^"\\]|\\.)*)", tooltip="((?:[^"\\]|\\.)*)"', re.M)
EDGE = re.compile(r'^\s*(n\d+) -> (n\d+) \[label="([^"]*)"(.*)\];$', re.M)


def _nodes(dot):
    return {m.group(1): (m.group(2).split("\\n"), m.group(3).replace("\\n", "\n")) for m in NODE.finditer(dot)}


def _by_name(dot):
    return {label[0]: (node_id, label, tip) for node_id, (label, tip) in _nodes(dot).items()}


def test_nodes_say_name_type_and_output_shape_with_the_users_line_as_tooltip():
    cf = dense_cf()
    dot = cf.graph.to_dot()
    nodes = _by_name(dot)
    line = line_of(dense, "tf.nn.relu")
    _, label, tip = nodes["MatMul"]
    assert label == ["MatMul", "(None, 3) float32"]  # the name says the type: not repeated
    assert tip == f"MatMul 'MatMul'\n{__file__.replace('test_dot.py', 'drawing_fixtures.py')}:{line}"
    assert nodes["add"][1] == ["add", "AddV2", "(None, 3) float32"]
    assert nodes["Relu"][1] == ["Relu", "(None, 3) float32"]
    assert nodes["x"][1] == ["x", "Placeholder", "(None, 4) float32"]
    # one node per op, plus the results
    assert len(_nodes(dot)) == len(cf.graph.get_operations()) + 1
    assert nodes["outputs"][1] == ["outputs", "(None, 3) float32"]


def test_edges_carry_dtype_and_shape():
    dot = dense_cf().graph.to_dot()
    ids = {name: v[0] for name, v in _by_name(dot).items()}
    edges = {(a, b): label for a, b, label, _ in EDGE.findall(dot)}
    assert edges[(ids["x"], ids["MatMul"])] == "float32 (None, 4)"
    assert edges[(ids["w"], ids["MatMul"])] == "float32 (4, 3)"
    assert edges[(ids["add/y"], ids["add"])] == "float32 ()"
    assert edges[(ids["Relu"], ids["Identity"])] == "float32 (None, 3)"


def test_cond_branches_and_loop_bodies_are_clusters_holding_their_ops():
    dot = branchy_cf().graph.to_dot()
    clusters = dict(re.findall(r'subgraph (cluster_c\d+) \{\s*id="c\d+"; label="([^"]*)"', dot))
    assert sorted(clusters.values()) == ["StatelessIf: else_branch", "StatelessIf: then_branch",
                                        "while: body", "while: cond"]
    then_body = dot.split('label="StatelessIf: then_branch"')[1].split("}")[0]
    assert 'label="Relu\\n(None, 3) float32"' in then_body and 'label="mul\\nMul\\n' in then_body
    loop_body = dot.split('label="while: body"')[1].split("}")[0]
    assert f"drawing_fixtures.py:{line_of(branchy, 'y = y + 1.0')}" in loop_body
    ids = {name: v[0] for name, v in _by_name(dot).items()}
    dashed = {(a, b) for a, b, _, rest in EDGE.findall(dot) if "dashed" in rest}
    # the branch's result flows to its op, and the branch reads MatMul from the enclosing graph
    assert (ids["mul"], ids["StatelessIf"]) in dashed and (ids["MatMul"], ids["Relu/features"]) in dashed
    assert (ids["add"], ids["while"]) in dashed


def test_quote_escapes_what_dot_would_misread():
    assert quote('a "b" \\c\nd') == '"a \\"b\\" \\\\c\\nd"'


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot program is not installed")
def test_dot_program_accepts_the_text_and_keeps_node_ids():
    dot = branchy_cf().graph.to_dot()
    svg = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True, check=True).stdout
    for node_id in _nodes(dot):
        assert f'id="{node_id}"' in svg
    assert 'id="c0"' in svg


def test_render_without_the_graphviz_package_names_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "graphviz", None)  # import graphviz -> ImportError
    with pytest.raises(ImportError, match=r"pip install 'eagerflow\[viz\]'.*`dot` program"):
        dense_cf().graph.render(tmp_path / "g.svg")
    assert not (tmp_path / "g.svg").exists()


def test_render_without_the_dot_program_names_graphviz(monkeypatch, tmp_path):
    class ExecutableNotFound(RuntimeError):
        pass

    class Source:
        def __init__(self, text):
            self.text = text

        def pipe(self, format):
            raise ExecutableNotFound("failed to execute PosixPath('dot')")

    fake = types.SimpleNamespace(Source=Source, ExecutableNotFound=ExecutableNotFound)
    monkeypatch.setitem(sys.modules, "graphviz", fake)
    with pytest.raises(RuntimeError, match=r"Cannot render to PNG: the Graphviz `dot` program is not installed.*"
                                           r"apt-get install graphviz.*'\.html' needs neither"):
        dense_cf().graph.render(tmp_path / "g.png")


def test_dot_and_html_files_need_nothing_installed(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    graph = dense_cf().graph
    assert graph.render(tmp_path / "g.dot") == str(tmp_path / "g.dot")
    assert (tmp_path / "g.dot").read_text() == graph.to_dot()
    graph.render(tmp_path / "g.html")
    assert "<svg" in (tmp_path / "g.html").read_text()


def test_unknown_formats_are_refused():
    assert format_of("a/b.SVG") == "svg" and format_of("x", "png") == "png"
    with pytest.raises(ValueError, match=r"Cannot draw a graph as 'jpg' .*\.svg, \.png"):
        format_of("out.jpg")


def _graphviz_works():
    try:
        import graphviz
        graphviz.Source("digraph { a }").pipe(format="svg")
        return True
    except Exception:
        return False


@pytest.mark.skipif(not _graphviz_works(), reason="the graphviz package or the dot program is not installed")
def test_render_svg_and_png_through_graphviz(tmp_path):
    graph = branchy_cf().graph
    svg = (tmp_path / "g.svg")
    graph.render(svg)
    assert svg.read_text().lstrip().startswith("<?xml") and "StatelessWhile: body" in svg.read_text()
    graph.render(tmp_path / "g.png")
    assert (tmp_path / "g.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_graph_does_not_keep_its_generated_code_alive():
    # graph.to_html() finds the generated code through a weak reference: graph and code die together.
    refs = []
    for i in range(300):
        cf = tf.function(lambda x: x * 2.0 + 1.0).get_concrete_function(tf.TensorSpec([None]))
        refs.append(weakref.ref(cf.graph))
        assert cf.graph._generated() is cf.executable.generated
        del cf
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
