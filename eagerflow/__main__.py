"""The `eagerflow` command (`eagerflow demo`, or `python -m eagerflow demo`).

Subcommands are a small table so later ones (e.g. a benchmark or a model inspector) add one entry.
Usage errors go to stderr with exit status 2, as argparse does for any command-line tool.
"""
from __future__ import annotations

import argparse
import sys


def _demo(args) -> int:
    from ._src.demo import run_demo
    run_demo()
    return 0


def _graph(args) -> int:
    from ._src.graph_command import run
    return run(args)


def _graph_arguments(parser):
    from ._src.graph_command import add_arguments
    add_arguments(parser)


def _saved_model(args) -> int:
    from .saved_model.cli import run_command
    return run_command(args)


def _saved_model_arguments(parser):
    from .saved_model.cli import add_arguments
    add_arguments(parser)


def _serve(args) -> int:
    from .serving.command import run
    return run(args)


def _serve_arguments(parser):
    from .serving.command import add_arguments
    add_arguments(parser)


# name -> (handler, help, optional function adding the subcommand's arguments)
COMMANDS = {
    "demo": (_demo, "train an MNIST classifier (MNIST if downloaded, else the bundled digits), save and reload it, "
                    "then tour eager mode, GradientTape, tf.function and AutoGraph"),
    "graph": (_graph, "draw a function's traced graph as SVG, PNG, DOT or an interactive HTML page",
              _graph_arguments),
    "saved-model": (_saved_model, "inspect a SavedModel's signatures (show) or run one on inputs (run)",
                    _saved_model_arguments),
    "serve": (_serve, "serve SavedModels over TensorFlow Serving's REST and gRPC APIs (binds 127.0.0.1 unless "
              "--host)", _serve_arguments),
}


def version_text() -> str:
    """The package's version and the TensorFlow API it follows (`tf.__version__` is the latter)."""
    from importlib import metadata

    from . import __version__ as api_version

    try:
        package = metadata.version("eagerflow")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        package = "unknown"
    return f"eagerflow {package} (TensorFlow {api_version} API: tf.__version__ is {api_version!r})"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="eagerflow",
                                     description="eagerflow: TensorFlow 2's programming model on NumPy.")
    parser.add_argument("--version", action="version", version=version_text())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_, help_text, *arguments) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=help_text)
        for add_arguments in arguments:
            add_arguments(command)
    return parser


def _option_strings(parser) -> set:
    found = set()
    for action in parser._actions:  # argparse keeps no public list of a parser's options
        found.update(action.option_strings)
        for sub in getattr(action, "choices", None) or {}:
            if isinstance(action.choices, dict):
                found |= _option_strings(action.choices[sub])
    return found


def normalize_flags(argv, known) -> list:
    """`--flag-name` and `--flag_name` both name an option (TensorFlow's tools use `_`, most CLIs `-`)."""
    out = []
    for token in argv:
        if token.startswith("--"):
            name, eq, value = token.partition("=")
            if name not in known:
                for other in (name[:2] + name[2:].replace("-", "_"), name[:2] + name[2:].replace("_", "-")):
                    if other in known:
                        token = other + eq + value
                        break
        out.append(token)
    return out


def main(argv=None) -> int:
    parser = _parser()
    argv = normalize_flags(sys.argv[1:] if argv is None else list(argv), _option_strings(parser))
    args = parser.parse_args(argv)  # unknown or missing subcommand: usage on stderr, exit 2
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")  # 'µs' and '²' on a terminal that cannot print them
    return COMMANDS[args.command][0](args)


if __name__ == "__main__":
    sys.exit(main())
