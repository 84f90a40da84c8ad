"""A graph page as a real browser draws it: a screenshot of the page (headless Chromium, found as
tests/graph/browser.py says; the test skips without one) is not blank, and every node in view shows its
label at a readable size: the user's variable names, the loop's and the branch's ops among them.

Where each node is on the screen comes from the page itself (its boxes in the drawing, and the pan/zoom
the page's script applied, read back from the DOM the browser ends with); the pixels inside each box
must then hold dark text of at least the height of a 10 px label drawn at the opening zoom (>= 1.1x).
"""
import json
import re

import numpy as np
import pytest

import eagerflow as tf

from .browser import SKIP_REASON, find_browser, run_browser
from .drawing_fixtures import line_of

pytestmark = pytest.mark.skipif(find_browser() is None, reason=SKIP_REASON)

WINDOW = (2600, 1800)  # wide enough for the whole page: it then opens fitted, every node in view
SIDE_PANEL = 381  # the details/code column (380 px and its border) on the right
NODE = re.compile(r'<g class="node" id="(\w+)"><title>[^<]*</title><rect x="([\d.]+)" y="([\d.]+)" '
                  r'width="([\d.]+)" height="([\d.]+)"[^>]*/><text[^>]*>([^<]*)</text>')


class Net(tf.Module):
    def __init__(self):
        self.kernel = tf.Variable(tf.ones([4, 4]), name="kernel")
        self.bias = tf.Variable(tf.zeros([4]), name="bias")

    @tf.function(input_signature=[tf.TensorSpec([None, 4])])
    def __call__(self, x):
        for _ in tf.range(3):
            if tf.reduce_sum(x) > 0:
                x = tf.matmul(x, self.kernel) + self.bias
            else:
                x = x - 1.0
        return tf.nn.relu(x)


def _screenshot(page, tmp_path):
    image = pytest.importorskip("PIL.Image")
    shot = tmp_path / "page.png"
    size = f"--window-size={WINDOW[0]},{WINDOW[1]}"
    common = ("--hide-scrollbars", "--force-device-scale-factor=1", size)
    done = run_browser(*common, f"--screenshot={shot}", f"file://{page}")
    assert shot.exists(), done.stderr[-2000:]
    dom = run_browser(*common, "--dump-dom", f"file://{page}").stdout
    x, y, k = map(float, re.search(r"translate\(([-\d.]+)px, ([-\d.]+)px\) scale\(([\d.]+)\)", dom).groups())
    with image.open(shot) as opened:
        gray = np.asarray(opened.convert("L"), dtype=np.int16)
    return gray, (x, y, k)


def test_the_page_draws_every_label_readably_in_a_real_browser(tmp_path):
    net = Net()  # kept alive: a traced method holds its instance weakly
    page = tmp_path / "graph.html"
    net.__call__.get_concrete_function().graph.render(page, layout="python")
    text = page.read_text()
    gray, (pan_x, pan_y, zoom) = _screenshot(page, tmp_path)
    assert gray.shape == (WINDOW[1], WINDOW[0])
    canvas = gray[:, :WINDOW[0] - SIDE_PANEL]
    assert (canvas < 240).mean() > 0.02 and len(np.unique(canvas)) > 20  # drawn, not a blank page
    assert zoom >= 1.1  # the opening zoom keeps 10 px labels at 11 px or more

    drawn = {}
    for node_id, *box, label in NODE.findall(text):
        bx, by, bw, bh = (float(v) for v in box)
        left, top = int(pan_x + bx * zoom) + 3, int(pan_y + by * zoom) + 3
        right, bottom = int(pan_x + (bx + bw) * zoom) - 3, int(pan_y + (by + bh) * zoom) - 3
        if left < 0 or top < 0 or right > canvas.shape[1] or bottom > canvas.shape[0]:
            continue  # out of view
        quarter = (right - left) // 4  # the middle half: inside a rounded input node's ends too
        ink = canvas[top:bottom, left + quarter:right - quarter] < 110  # black text on the light fills
        rows = np.flatnonzero(ink.any(axis=1))
        first_line = rows[:np.argmax(np.diff(rows, append=rows[-1] + 2) > 1) + 1] if rows.size else rows
        # a node's first line, its name, is in its upper half and at least a capital's height tall
        # (7 px: 10 px text at 1.1x has 8 px capitals)
        drawn[node_id] = (label, rows.size and rows[0] < 0.55 * (bottom - top), first_line.size >= 7)
    labels = {label for label, _, _ in drawn.values()}
    assert {"x", "kernel", "bias", "MatMul", "If", "Sum", "Less", "Relu"} <= labels, sorted(labels)
    unreadable = [label for label, top_line, tall in drawn.values() if not (top_line and tall)]
    assert not unreadable, unreadable
    assert "ReadVariableOp/resource" not in labels  # variables appear under the user's names

    data = json.loads(re.search(r'<script id="graph-data" type="application/json">(.*?)</script>', text,
                                re.S).group(1).replace("<\\/", "</"))
    by_type = {}
    for node in data["nodes"].values():
        by_type.setdefault(node["type"], set()).add(int(node["source"].rsplit(":", 1)[1]) if node["source"] else None)
    # the loop's ops are defined at the for line, the branch's at the if line and its body's at theirs
    assert by_type["While"] == by_type["Range"] == {line_of(Net.__call__, "for _ in")}
    assert by_type["If"] == by_type["Greater"] == {line_of(Net.__call__, "if tf.reduce_sum")}
    assert by_type["MatMul"] == {line_of(Net.__call__, "tf.matmul")}
    assert by_type["Sub"] == {line_of(Net.__call__, "x - 1.0")}
