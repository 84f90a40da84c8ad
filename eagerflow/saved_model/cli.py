"""`eagerflow saved-model show|run`: inspect and run a SavedModel from the shell, in the layout of
TensorFlow's `saved_model_cli` so scripts and habits carry over.

`show` reads names, dtypes and shapes from the loaded signatures (so what it prints was validated
like any load); `run` feeds inputs parsed by `cli_inputs.py` (literals, a whitelist of NumPy
constructors, .npy/.npz files; never eval) and prints each output as TensorFlow's tool does.
eagerflow's format has no tag-sets: every model is shown as TensorFlow's default tag-set 'serve'.
Errors print one line on stderr and exit with status 1.
"""
from __future__ import annotations

import sys

import numpy as np

from .cli_inputs import InputError, parse_input_exprs, parse_inputs

TAG_SET = "serve"
METHOD_NAME = "tensorflow/serving/predict"


class CommandError(Exception):
    """A failure reported to the user as one line, exit status 1."""


def add_arguments(parser):
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="list a SavedModel's signatures with their inputs and outputs",
                              description="Show a SavedModel's tag-set, signatures, inputs and outputs.")
    show.add_argument("--dir", required=True, help="the SavedModel directory")
    show.add_argument("--all", action="store_true", help="everything: every signature and function")
    show.add_argument("--tag_set", help="list the signature keys of this tag-set (eagerflow has 'serve')")
    show.add_argument("--signature_def", help="show one signature's inputs and outputs")
    run = actions.add_parser("run", help="run a signature on inputs and print its outputs",
                             description="Run a SavedModel signature and print its outputs.")
    run.add_argument("--dir", required=True, help="the SavedModel directory")
    run.add_argument("--tag_set", default=TAG_SET, help="accepted for saved_model_cli compatibility ('serve')")
    run.add_argument("--signature_def", required=True, help="the signature key to run")
    run.add_argument("--inputs", default="", help="'key=file.npy;key2=file.npz[name]' (allow_pickle=False)")
    run.add_argument("--input_exprs", default="",
                     help="'key=<literal or np.ones/zeros/array/arange/full call>;...' (not evaluated as code)")
    run.add_argument("--outdir", help="also save each output as <outdir>/<output key>.npy")
    run.add_argument("--overwrite", action="store_true", help="replace existing files in --outdir")


def run_command(args) -> int:
    try:
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


def _signatures(directory):
    return dict(getattr(_load(directory), "signatures", None) or {})


def _signature(signatures, key):
    if key not in signatures:
        raise CommandError(f'Could not find signature "{key}". Please choose from: {", ".join(signatures)}')
    return signatures[key]


def _check_tag_set(tag_set):
    if tag_set is not None and sorted(filter(None, tag_set.split(","))) != [TAG_SET]:
        raise CommandError(f"MetaGraphDef associated with tag-set {tag_set!r} could not be found in "
                           f"SavedModel; the available tag-set is {TAG_SET!r}")


# --- show ---
def _show(args):
    if args.all:
        signatures = _signatures(args.dir)
        print(f"\nMetaGraphDef with tag-set: '{TAG_SET}' contains the following SignatureDefs:")
        for key in sorted(signatures):
            print(f"\nsignature_def['{key}']:")
            _print_signature(signatures[key], indent="  ")
        ops = sorted({op.type for cf in signatures.values() for op in cf.graph.get_operations()})
        print(f"The MetaGraph with tag set ['{TAG_SET}'] contains the following ops: {{"
              + ", ".join(repr(o) for o in ops) + "}")
        _print_functions(_load(args.dir))
        return
    _check_tag_set(args.tag_set)
    if args.signature_def is not None:
        _print_signature(_signature(_signatures(args.dir), args.signature_def), indent="")
    elif args.tag_set is not None:
        print("The given SavedModel MetaGraphDef contains SignatureDefs with the following keys:")
        for key in _signatures(args.dir):
            print(f'SignatureDef key: "{key}"')
    else:
        _load(args.dir)
        print("The given SavedModel contains the following tag-sets:")
        print(repr(TAG_SET))


def _inputs(cf):
    """[(name, spec)] of a signature's keyword inputs, in TensorFlow's sorted order."""
    return sorted(cf.structured_input_signature[1].items())


def _outputs(cf):
    """[(name, tensor)] of a signature's named outputs, sorted."""
    return sorted(cf.traced_outputs.items())


def _print_signature(cf, indent):
    print(f"{indent}The given SavedModel SignatureDef contains the following input(s):")
    placeholders = dict(zip([spec.name for spec in cf.flat_input_signature], cf.inputs))
    for name, spec in _inputs(cf):
        _print_tensor_info(f"inputs['{name}']", spec.dtype, spec.shape, placeholders[name].name, indent)
    print(f"{indent}The given SavedModel SignatureDef contains the following output(s):")
    for name, tensor in _outputs(cf):
        _print_tensor_info(f"outputs['{name}']", tensor.dtype, tensor.shape, tensor.name, indent)
    print(f"{indent}Method name is: {METHOD_NAME}")


def _print_tensor_info(label, dtype, shape, tensor_name, indent):
    print(f"{indent}  {label} tensor_info:")
    print(f"{indent}      dtype: {_dt_enum(dtype)}")
    print(f"{indent}      shape: {_shape_text(shape)}")
    print(f"{indent}      name: {tensor_name}")


def _dt_enum(dtype):
    """TensorFlow's DataType enum name: float32 -> DT_FLOAT, int64 -> DT_INT64, string -> DT_STRING."""
    special = {"float32": "DT_FLOAT", "float64": "DT_DOUBLE", "float16": "DT_HALF"}
    return special.get(dtype.name, "DT_" + dtype.name.upper())


def _shape_text(shape):
    dims = shape.as_list() if shape.rank is not None else None
    if dims is None:
        return "unknown_rank"
    return "(" + ", ".join("-1" if d is None else str(d) for d in dims) + ")"


def _print_functions(root):
    """TensorFlow's 'Concrete Functions' section: each saved tf.function on the root and the Python
    call of each of its traces (a tensor shown as its TensorSpec, any other argument as its value)."""
    from .load import RestoredFunction
    print("\nConcrete Functions:", end="")
    for name in sorted(vars(root)):
        function = getattr(root, name)
        if not isinstance(function, RestoredFunction):
            continue
        print(f"\n  Function Name: '{name}'")
        for index, cf in enumerate(sorted(function.concrete_functions, key=lambda f: f.name), 1):
            args, kwargs = cf.structured_input_signature  # the traced call, as TensorFlow's tool reads it
            kwargs = list(kwargs.values())
            if args:
                print(f"    Option #{index}")
                print("      Callable with:")
                _print_arguments(args, "Argument")
            if kwargs:
                _print_arguments(kwargs, "Named Argument")


def _print_arguments(values, label):
    from .._src.core.tensor import TensorSpec
    for index, value in enumerate(values, 1):
        print(f"        {label} #{index}")
        if isinstance(value, TensorSpec):
            print(f"          {value.name}: {value!r}")
            continue
        print(f"          DType: {type(value).__name__}")
        if isinstance(value, dict):
            items = ", ".join(f"'{k}': {_quoted(v)}" for k, v in value.items())
            print(f"          Value: {{{items}}}")
        elif isinstance(value, list | tuple):
            print(f"          Value: [{', '.join(_quoted(v) for v in value)}]")
        else:
            print(f"          Value: {value}")


def _quoted(value):
    return f"'{value}'" if isinstance(value, str) else str(value)


# --- run ---
def _run(args):
    _check_tag_set(args.tag_set)
    if not args.inputs and not args.input_exprs:
        raise CommandError("at least one of --inputs and --input_exprs is required")
    try:
        given = parse_inputs(args.inputs)
        for key, value in parse_input_exprs(args.input_exprs).items():
            if key in given:
                raise InputError(f'"{key}" is given by both --inputs and --input_exprs')
            given[key] = value
    except InputError as err:
        raise CommandError(str(err)) from None
    cf = _signature(_signatures(args.dir), args.signature_def)
    specs = {spec.name: spec for spec in cf.flat_input_signature}
    for key in given:
        if key not in specs:
            choices = '", "'.join(specs)
            raise CommandError(f'"{key}" is not a valid input key. Please choose from "{choices}", '
                               "or use --show option.")
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
