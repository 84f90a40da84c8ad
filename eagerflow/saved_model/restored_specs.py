"""The TensorSpecs a loaded function reports, named as TensorFlow 2.21 names them on restore.

A traced function prints its unnamed parameters and its outputs with `name=None`; once saved and
loaded, TensorFlow gives each one a name from where it sits in the call or the result:
- a parameter: its own name, else its path (`x`, `d_k` for `d["k"]`, `pair_1`);
- an output: its path joined by `_`, lower-cased, every character other than a letter or a digit
  made `_`, with `tensor_` in front when that does not start with a letter, and `unknown` for a
  lone tensor (`{"z": (a, [b])}` gives `z_0`, `z_1_0`; a top-level tuple `tensor_0`, `tensor_1`;
  a signature's outputs, a dict, their keys).
"""
from __future__ import annotations

from .._src.core.tensor import Tensor, TensorSpec


def spec_name(path: str) -> str:
    """TensorFlow's name for the spec at `path` (the path parts joined by `_`)."""
    if not path:
        return "unknown"
    name = "".join(c if c.isalnum() else "_" for c in path.lower())
    return name if name[0].isalpha() else "tensor_" + name


def named_parameter(template, path: str):
    """A traced call's template with each unnamed TensorSpec named by its parameter path."""
    if isinstance(template, TensorSpec):
        return template if template.name else TensorSpec(template.shape, template.dtype, path)
    if isinstance(template, dict):
        return {k: named_parameter(v, f"{path}_{k}") for k, v in template.items()}
    if isinstance(template, (list, tuple)):
        parts = [named_parameter(v, f"{path}_{i}") for i, v in enumerate(template)]
        return type(template)(*parts) if hasattr(type(template), "_fields") else type(template)(parts)
    return template


def output_specs(structure, path: str = ""):
    """The output structure with each tensor replaced by its TensorSpec, named by its path."""
    def join(part):
        return f"{path}_{part}" if path else str(part)
    if isinstance(structure, Tensor):
        return TensorSpec(structure.shape, structure.dtype, spec_name(path))
    if isinstance(structure, dict):
        return {k: output_specs(v, join(k)) for k, v in structure.items()}
    if isinstance(structure, tuple) and hasattr(type(structure), "_fields"):
        return type(structure)(*[output_specs(v, join(f)) for f, v in zip(structure._fields, structure)])
    if isinstance(structure, (list, tuple)):
        return type(structure)(output_specs(v, join(i)) for i, v in enumerate(structure))
    return structure
