"""`eagerflow saved-model show|run`: inspect and run a SavedModel from the shell, TensorFlow's or
eagerflow's, with `saved_model_cli`'s flags and output layout so scripts and habits carry over.

`show` prints what saved_model.pb describes (cli_show.py: nothing is loaded or run); `run` checks the
tag-set, signature and input keys against the same message as TensorFlow's tool does, loads the model,
feeds inputs parsed by `cli_inputs.py` (literals, a whitelist of NumPy constructors, .npy/.npz
files; never eval) and prints each output as TensorFlow's tool does. Errors print one line on
stderr and exit with status 1; a run-time error inside the model names its node, not this command's
frames (the loaded graphs record no Python source: graph/sites.py `no_user_sites`).
"""
from __future__ import annotations

import sys

import numpy as np

from .cli_inputs import InputError, parse_input_exprs, parse_inputs

TAG_SET = "serve"


class CommandError(Exception):
    """A failure reported to the user as one line, exit status 1."""


def add_arguments(parser):
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="list a SavedModel's signatures with their inputs and outputs",
                              description="Show a SavedModel's tag-sets, signatures, inputs, outputs and ops.")
    show.add_argument("--dir", required=True, help="the SavedModel directory")
    show.add_argument("--all", action="store_true", help="everything: every tag-set, signature, op and function")
    show.add_argument("--tag_set", help="list the signature keys of this tag-set (comma-separated tags, e.g. serve)")
    show.add_argument("--signature_def", help="show one signature's inputs and outputs (with --tag_set)")
    show.add_argument("--list_ops", action="store_true", help="list the ops the tag-set's graph uses")
    run = actions.add_parser("run", help="run a signature on inputs and print its outputs",
                             description="Run a SavedModel signature and print its outputs.")
    run.add_argument("--dir", required=True, help="the SavedModel directory")
    run.add_argument("--tag_set", default=TAG_SET, help="the MetaGraph's tag-set (default: serve)")
    run.add_argument("--signature_def", required=True, help="the signature key to run")
    run.add_argument("--inputs", default="", help="'key=file.npy;key2=file.npz[name]' (allow_pickle=False)")
    run.add_argument("--input_exprs", default="",
                     help="'key=<literal or np.ones/zeros/array/arange/full call>;...' (not evaluated as code)")
    run.add_argument("--outdir", help="also save each output as <outdir>/<output key>.npy")
    run.add_argument("--overwrite", action="store_true", help="replace existing files in --outdir")


def run_command(args) -> int:
    from .._src.graph.sites import no_user_sites
    try:
        with no_user_sites():  # the model's graphs were not defined by this command's lines
            if args.action == "show":
                _show(args)
            else:
                _run(args)
    except CommandError as err:
        print(f"eagerflow saved-model {args.action}: error: {err}", file=sys.stderr)
        return 1
    return 0


def _load(directory):
    from .._src.core.errors import DataLossError, PermissionDeniedError
    from .load import load
    try:
        return load(directory)
    except OSError:
        raise CommandError(f"SavedModel file does not exist at: {directory}") from None
    except DataLossError as err:
        raise CommandError(f"the SavedModel is corrupted: {err}") from None
    except PermissionDeniedError as err:  # its functions read or write files (load_safety.py)
        raise CommandError(f"the SavedModel is refused: {err}") from None


# --- show ---
def _show(args):
    from . import cli_show
    try:
        saved_model = cli_show.read_saved_model(args.dir)
        if args.all:
            cli_show.print_all(saved_model, args.dir)
        elif args.tag_set is None and args.signature_def is not None and len(saved_model.meta_graphs) == 1:
            # eagerflow's shortcut (TensorFlow's tool lists the tag-sets here): the only MetaGraph's signature
            cli_show.print_signature(saved_model.meta_graphs[0], args.signature_def)
        elif args.tag_set is None:
            if args.list_ops:
                print("--list_ops must be paired with a tag-set or with --all.")
            cli_show.print_tag_sets(saved_model)
        else:
            meta_graph = cli_show.meta_graph_for(saved_model, args.tag_set)
            if args.list_ops:
                cli_show.print_ops(meta_graph)
            if args.signature_def is None:
                cli_show.print_signature_keys(meta_graph)
            else:
                cli_show.print_signature(meta_graph, args.signature_def)
    except cli_show.ShowError as err:
        raise CommandError(str(err)) from None


# --- run ---
def _run(args):
    from . import cli_show
    if not args.inputs and not args.input_exprs:
        raise CommandError("At least one of --inputs or --input_exprs must be required")
    try:
        given = parse_inputs(args.inputs)
        for key, value in parse_input_exprs(args.input_exprs).items():
            if key in given:
                raise InputError(f'"{key}" is given by both --inputs and --input_exprs')
            given[key] = value
    except InputError as err:
        raise CommandError(str(err)) from None
    try:
        meta_graph = cli_show.meta_graph_for(cli_show.read_saved_model(args.dir), args.tag_set)
        keys = sorted(cli_show.signature_def(meta_graph, args.signature_def).inputs)
    except cli_show.ShowError as err:
        raise CommandError(str(err)) from None
    for key in given:
        if key not in keys:
            choices = '", "'.join(keys)
            raise CommandError(f'"{key}" is not a valid input key. Please choose from "{choices}" (`eagerflow '
                               f"saved-model show --dir {args.dir} --tag_set {args.tag_set} --signature_def "
                               f"{args.signature_def}` lists them).")
    signatures = dict(getattr(_load(args.dir), "signatures", None) or {})
    if args.signature_def not in signatures:
        raise CommandError(f'Could not find signature "{args.signature_def}". Please choose from: '
                           f'{", ".join(signatures)}')
    cf = signatures[args.signature_def]
    specs = {spec.name: spec for spec in cf.flat_input_signature}
    missing = [k for k in specs if k not in given]
    if missing:
        raise CommandError(f"missing input(s) {', '.join(repr(k) for k in missing)}: the signature "
                           f"takes {', '.join(repr(k) for k in specs)}")
    feeds = {key: _as_input(key, value, specs[key]) for key, value in given.items()}
    from .._src.core.errors import OpError
    try:
        outputs = cf(**feeds)
    except (OpError, ValueError, TypeError) as err:
        raise CommandError(f"running signature {args.signature_def!r} failed: {type(err).__name__}: {err}") from None
    paths = _output_paths(args.outdir, sorted(outputs), args.overwrite) if args.outdir else {}
    for key in sorted(outputs):
        print(f"Result for output key {key}:\n{outputs[key].numpy()}")
        if key in paths:
            np.save(paths[key], outputs[key].numpy(), allow_pickle=False)
            print(f"Output {key} is saved to {paths[key]}")


def _output_paths(outdir, keys, overwrite):
    """TF's --outdir: <outdir>/<key>.npy; existing files are refused (before anything is written)
    unless --overwrite."""
    import os
    paths = {key: os.path.join(outdir, key + ".npy") for key in keys}
    for path in paths.values():
        if not overwrite and os.path.exists(path):
            raise CommandError(f'Output file {path} already exists. Add "--overwrite" to overwrite the existing '
                               "output files.")
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as err:
        raise CommandError(f"cannot create --outdir {outdir}: {err.strerror}") from None
    return paths


def _as_input(key, value, spec):
    """The value in the signature's dtype (TensorFlow's feed converts it the same way), shape checked."""
    from .._src.ops.array.basic import constant
    try:
        array = np.asarray(value).astype(spec.dtype.np_dtype, casting="unsafe") \
            if spec.dtype.name != "string" else np.asarray(value).astype(bytes)
    except (TypeError, ValueError) as err:
        raise CommandError(f'input "{key}" cannot be converted to {spec.dtype.name}: {err}') from None
    if not spec.shape.is_compatible_with(array.shape):
        raise CommandError(f'input "{key}" has shape {array.shape}, which is not compatible with the '
                           f"signature's shape {_shape_text(spec.shape)}")
    return constant(array, dtype=spec.dtype)


def _shape_text(shape):
    if shape.rank is None:
        return "unknown_rank"
    return "(" + ", ".join("-1" if d is None else str(d) for d in shape.as_list()) + ")"
