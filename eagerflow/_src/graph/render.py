"""Drawing a graph to a file: SVG/PNG/PDF through Graphviz, DOT text, or the HTML page.

SVG and PNG need two things eagerflow does not install by default: the `graphviz` Python package
(`pip install 'eagerflow[viz]'`) and Graphviz's `dot` program (a system package). When either is
missing the error says which one and how to get it, and points at `.dot` and `.html`, which need
neither. The methods users call (`graph.to_dot()`, `graph.render(path)`, `graph.to_html()`) are
the mixin at the bottom, which `Graph` inherits.
"""
from __future__ import annotations

import os
import weakref

FORMATS = ("svg", "png", "pdf", "dot", "gv", "html")

_INSTALL_DOT = ("the Graphviz `dot` program is not installed (or not on PATH): install Graphviz "
                "(apt-get install graphviz, brew install graphviz, or https://graphviz.org/download/)")
_INSTALL_PACKAGE = ("rendering to {fmt} needs the `graphviz` Python package: pip install 'eagerflow[viz]' "
                    "(or pip install graphviz)")
_NEEDS_NOTHING = "; writing '.dot' or '.html' needs neither"


def dot_to_image(dot_text: str, fmt: str) -> bytes:
    """Graphviz's drawing of `dot_text` in `fmt` ('svg', 'png', 'pdf'); ImportError or RuntimeError
    naming what to install when Graphviz is not available."""
    try:
        import graphviz
    except ImportError:
        raise ImportError(_INSTALL_PACKAGE.format(fmt=fmt.upper()) + ", and Graphviz's `dot` program" +
                          _NEEDS_NOTHING) from None
    try:
        return graphviz.Source(dot_text).pipe(format=fmt)
    except graphviz.ExecutableNotFound:
        raise RuntimeError(f"Cannot render to {fmt.upper()}: {_INSTALL_DOT}{_NEEDS_NOTHING}") from None


def graphviz_available() -> bool:
    """Whether SVG can be made through Graphviz here (the package imports and `dot` runs)."""
    try:
        dot_to_image("digraph { a }", "svg")
        return True
    except (ImportError, RuntimeError):
        return False


def format_of(path, fmt=None) -> str:
    fmt = (fmt or os.path.splitext(str(path))[1].lstrip(".") or "").lower()
    if fmt not in FORMATS:
        raise ValueError(f"Cannot draw a graph as {fmt!r} (from {str(path)!r}): use one of "
                         f"{', '.join('.' + f for f in FORMATS)}")
    return fmt


class Drawable:
    """What `Graph` gains for drawing itself. A ConcreteFunction registers its generated code on
    its graph (weakly: the code's line table refers back to the graph's ops), so the HTML page can
    show the Python line that runs each node."""

    _generated_ref = None

    def set_generated(self, generated):
        """Remembers, weakly, the GeneratedFunction compiled from this graph."""
        self._generated_ref = weakref.ref(generated)

    def _generated(self):
        ref = self._generated_ref
        return ref() if ref is not None else None

    def to_dot(self) -> str:
        """Graphviz DOT text: op type and output shape on each node, dtype/shape on edges, control
        flow bodies as clusters, the user's file:line as each node's tooltip."""
        from .dot import graph_to_dot
        return graph_to_dot(self)

    def to_html(self, layout="auto") -> str:
        """A self-contained interactive page (pan, zoom, click a node for its generated line).
        layout: 'dot' (Graphviz), 'python' (eagerflow's own, needs nothing), 'auto' (dot if present)."""
        from .html import graph_to_html
        return graph_to_html(self, self._generated(), layout)

    def render(self, path, format=None, layout="auto") -> str:
        """Writes the drawing to `path` in the format its extension names (svg, png, pdf, dot, html);
        returns the path."""
        fmt = format_of(path, format)
        if fmt in ("dot", "gv"):
            data = self.to_dot().encode()
        elif fmt == "html":
            data = self.to_html(layout).encode()
        else:
            data = dot_to_image(self.to_dot(), fmt)
        with open(path, "wb") as f:
            f.write(data)
        return str(path)
