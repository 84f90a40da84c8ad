"""`eagerflow graph MODULE:FUNCTION --input-signature '[[None, 784], float32]' -o out.svg|out.html|out.dot`

Traces a function and draws its graph. MODULE is an importable module name or a path to a .py
file; FUNCTION may be dotted (`model.call`). A plain Python function is wrapped in tf.function.

The signature is parsed, never evaluated: a spec is `[shape, dtype]` where the shape is a list of
ints and None (or None for an unknown rank) and the dtype a bare TensorFlow dtype name (`float32`,
`tf.int32`); the argument is one spec or a list of specs, one per positional argument:
`'[[None, 784], float32]'`, `'[[[None, 784], float32], [[], int32]]'`.
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import os
import shutil
import sys


class SignatureError(ValueError):
    """The --input-signature text is not a spec or a list of specs."""


_EXAMPLE = "expected '[[None, 784], float32]' or a list of such specs '[[[None, 784], float32], [[], int32]]'"


def _dtype_name(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "tf":
        return node.attr
    return None


def _shape(node):
    if isinstance(node, ast.Constant) and node.value is None:
        return None
    if isinstance(node, (ast.List, ast.Tuple)):
        dims = []
        for d in node.elts:
            if isinstance(d, ast.Constant) and (d.value is None or (type(d.value) is int and d.value >= 0)):
                dims.append(d.value)
            else:
                raise SignatureError(f"a dimension must be a non-negative int or None, got {ast.unparse(d)!r}")
        return dims
    raise SignatureError(f"a shape must be a list of ints and None, got {ast.unparse(node)!r}")


def _is_spec(node):
    return (isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) == 2 and _dtype_name(node.elts[1])
            and (isinstance(node.elts[0], (ast.List, ast.Tuple))
                 or (isinstance(node.elts[0], ast.Constant) and node.elts[0].value is None)))


def parse_input_signature(text: str):
    """TensorSpecs from the command-line text (see the module docstring); SignatureError if malformed."""
    from .core.dtypes import as_dtype
    from .core.tensor import TensorSpec
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise SignatureError(f"cannot parse input signature {text!r}: {_EXAMPLE}") from None
    if _is_spec(tree):
        nodes = [tree]
    elif isinstance(tree, (ast.List, ast.Tuple)) and all(_is_spec(n) for n in tree.elts):
        nodes = list(tree.elts)
    else:
        raise SignatureError(f"cannot read input signature {text!r}: {_EXAMPLE}")
    specs = []
    for node in nodes:
        name = _dtype_name(node.elts[1])
        try:
            dtype = as_dtype(name)
        except (TypeError, ValueError):
            raise SignatureError(f"unknown dtype {name!r} in input signature {text!r}") from None
        specs.append(TensorSpec(_shape(node.elts[0]), dtype))
    return specs


def load_function(target: str):
    """The object named by MODULE:FUNCTION (MODULE a module name or a .py path)."""
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"expected MODULE:FUNCTION, got {target!r}")
    if module_name.endswith(".py") or os.sep in module_name:
        path = os.path.abspath(module_name)
        if not os.path.exists(path):
            raise FileNotFoundError(f"no such file: {module_name}")
        spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # so the function's source (AutoGraph) and pickling find it
        spec.loader.exec_module(module)
    else:
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        module = importlib.import_module(module_name)
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise AttributeError(f"{module_name} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return obj


def concrete_function(fn, specs):
    from .trace.function import function
    if not hasattr(fn, "get_concrete_function"):
        fn = function(fn)
    return fn.get_concrete_function(*specs) if specs is not None else fn.get_concrete_function()


def add_arguments(parser):
    parser.add_argument("target", metavar="MODULE:FUNCTION",
                        help="the function to draw: a module name or .py file, a colon, the function's name")
    parser.add_argument("--input-signature", metavar="SPECS",
                        help="argument specs, e.g. '[[None, 784], float32]' (default: the function's own)")
    parser.add_argument("-o", "--output", required=True,
                        help="the file to write: .svg/.png/.pdf (needs Graphviz), .html or .dot (need nothing)")
    parser.add_argument("--layout", choices=("auto", "dot", "python"), default="auto",
                        help="for .html: Graphviz's layout or eagerflow's own (default: Graphviz when installed)")


def _needs_signature(fn) -> bool:
    """True when `fn` cannot be traced without argument specs: it takes arguments and has no input_signature."""
    if getattr(fn, "input_signature", None) is not None:
        return False
    python = getattr(fn, "python_function", fn)
    try:
        parameters = inspect.signature(python).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters)


def _argument_names(fn) -> str:
    try:
        return ", ".join(inspect.signature(getattr(fn, "python_function", fn)).parameters)
    except (TypeError, ValueError):
        return "its arguments"


def _user_line(err) -> str:
    """'file.py:5' of the innermost traceback frame outside eagerflow (the user's line), or ''."""
    from .core.tracebacks import innermost_user_line
    found = innermost_user_line(err.__traceback__)
    return "" if found is None else f"{os.path.relpath(found[0])}:{found[1]}"


def _error(message: str, status: int) -> int:
    print(f"eagerflow graph: error: {message}", file=sys.stderr)
    return status


def run(args) -> int:
    from .graph.render import format_of
    try:
        output_format = format_of(args.output)
        specs = parse_input_signature(args.input_signature) if args.input_signature else None
        fn = load_function(args.target)
    except (ValueError, ImportError, AttributeError, FileNotFoundError) as err:
        return _error(str(err), 2)
    if specs is None and _needs_signature(fn):
        return _error(f"{args.target} has no input_signature: pass --input-signature with one [shape, dtype] per "
                      f"argument ({_argument_names(fn)}), e.g. --input-signature '[[None, 784], float32]'", 2)
    if args.layout == "dot" and output_format == "html" and shutil.which("dot") is None:
        return _error("--layout dot needs Graphviz's `dot` program, which is not installed (or not on PATH): "
                      "install Graphviz, or use --layout python (eagerflow's own layout)", 2)
    try:
        cf = concrete_function(fn, specs)
    except Exception as err:  # noqa: BLE001 - the user's function failed while tracing: say where, in one line
        where = _user_line(err)
        return _error(f"tracing {args.target} failed{' at ' + where if where else ''}: "
                      f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}", 1)
    try:
        cf.graph.render(args.output, layout=args.layout)
    except (ImportError, RuntimeError) as err:
        return _error(str(err), 1)
    print(f"wrote {args.output} ({len(cf.graph.get_operations())} ops in {cf.name})")
    return 0
