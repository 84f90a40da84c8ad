"""`tf.strings.regex_full_match` / `regex_replace`: StaticRegexFullMatch/RegexFullMatch and
StaticRegexReplace/RegexReplace (the Static form when the pattern is a Python string, as in TensorFlow).

Patterns are RE2's, matched on UTF-8 text (`.` is one character, not one byte); this uses Python's
`re` on the decoded text, which agrees on RE2's syntax apart from RE2's extensions. A rewrite names
groups as `\\1`..`\\9` (`\\0`: the whole match); a rewrite naming a group the pattern lacks leaves
the string unchanged.
"""
from __future__ import annotations

import re

import numpy as np

from ...core import dtypes as _dt
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from .elementwise import _S, _as_bytes, _elementwise, _err


def _compile(pattern: bytes):
    text = _as_bytes(pattern).decode("utf-8", "surrogateescape")
    try:
        return re.compile(text, re.ASCII)  # RE2's \d, \w, \s are ASCII classes
    except re.error as exc:
        raise _err(f"Invalid pattern: {text}, error: {_re2_words(exc, text)}") from None


def _re2_words(exc, text):
    """RE2's wording of a refused pattern (which quotes the offending part) where Python's re names the
    same problem, else Python's own words."""
    message, pos = str(exc).split(" at position")[0], exc.pos
    rest = text[pos:] if pos is not None else text
    if message.startswith("unterminated character set"):
        return f"missing ]: {rest}"
    if message.startswith("missing ), unterminated subpattern"):
        return f"missing ): {rest}"
    if message.startswith("unbalanced parenthesis"):
        return f"unexpected ): {text}"
    if message.startswith("nothing to repeat"):
        return f"no argument for repetition operator: {rest[:1]}"
    if message.startswith("multiple repeat") and pos:
        return f"bad repetition operator: {text[pos - 1:pos + 1]}"
    if "name" in message and "(?P<" in text[:(pos or 0) + 1]:
        return f"invalid named capture group: {text[text.rfind('(?P<', 0, (pos or 0) + 1):]}"
    return str(exc)


_REWRITE_PART = re.compile(r"\\(\d|\\)")


def _rewriter(compiled, rewrite: bytes):
    """RE2's rewrite string as a function of a match; None when it names a group the pattern lacks."""
    text = _as_bytes(rewrite).decode("utf-8", "surrogateescape")
    if any(m.group(1).isdigit() and int(m.group(1)) > compiled.groups for m in _REWRITE_PART.finditer(text)):
        return None

    def expand(match):
        return _REWRITE_PART.sub(lambda m: "\\" if m.group(1) == "\\" else (match.group(int(m.group(1))) or ""),
                                 text)
    return expand


def _decode(s: bytes) -> str:
    return s.decode("utf-8", "surrogateescape")


def _scalar_bytes(value):
    """A string attr (bytes) or a scalar string input (a 0-d object array) as bytes."""
    return _as_bytes(value.item() if isinstance(value, np.ndarray) else value)


def _full_match_kernel(x, pattern):
    compiled = _compile(_scalar_bytes(pattern))
    return _elementwise(lambda s: compiled.fullmatch(_decode(s)) is not None, np.bool_)(x)


def _replace_kernel(x, pattern, rewrite, replace_global=True):
    compiled = _compile(_scalar_bytes(pattern))
    expand = _rewriter(compiled, _scalar_bytes(rewrite))
    if expand is None:
        return np.asarray(x, dtype=object).copy()
    count = 0 if replace_global else 1
    return _elementwise(lambda s: compiled.sub(expand, _decode(s), count=count).encode("utf-8", "surrogateescape"))(x)


def _static_full_match_kernel(x, pattern=b""):
    return _full_match_kernel(x, pattern)


def _static_replace_kernel(x, pattern=b"", rewrite=b"", replace_global=True):
    return _replace_kernel(x, pattern, rewrite, replace_global)


def _regex_infer(name, out_dtype, scalar_inputs=()):
    def infer(inputs, attrs):
        for i in range(len(inputs)):
            R.check_input_dtype(name, inputs, i, _S)
        for i in scalar_inputs:
            if inputs[i].shape.rank not in (None, 0):
                raise _err(f"Shape must be rank 0 but is rank {inputs[i].shape.rank} for '{{{{node {name}}}}} = "
                           f"{name}' with input shapes: {R.fmt_dims(inputs[i].shape)}.")
        return [Spec(inputs[0].shape, out_dtype)]
    return infer


StaticRegexFullMatch = defop("StaticRegexFullMatch", inputs=("input",), kernel=_static_full_match_kernel,
                             infer=_regex_infer("StaticRegexFullMatch", _dt.bool_), grad=NO_GRADIENT)
RegexFullMatch = defop("RegexFullMatch", inputs=("input", "pattern"), kernel=_full_match_kernel,
                       infer=_regex_infer("RegexFullMatch", _dt.bool_, (1,)), grad=NO_GRADIENT)
StaticRegexReplace = defop("StaticRegexReplace", inputs=("input",), kernel=_static_replace_kernel,
                           infer=_regex_infer("StaticRegexReplace", _S), grad=NO_GRADIENT)
RegexReplace = defop("RegexReplace", inputs=("input", "pattern", "rewrite"), kernel=_replace_kernel,
                     infer=_regex_infer("RegexReplace", _S, (1, 2)), grad=NO_GRADIENT)


def regex_full_match(input, pattern, name=None):
    """`tf.strings.regex_full_match`: whether each whole string matches `pattern` (RE2 syntax)."""
    x = as_tensor(input)
    if isinstance(pattern, (str, bytes)):
        _compile(_as_bytes(pattern))  # a bad pattern fails here, in both modes
        return bind(StaticRegexFullMatch, (x,), {"pattern": _as_bytes(pattern)}, name=name)
    return bind(RegexFullMatch, (x, as_tensor(pattern, _S)), name=name)


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):
    """`tf.strings.regex_replace`: `pattern` matches replaced by `rewrite` (`\\1`: a group)."""
    x = as_tensor(input)
    if isinstance(pattern, (str, bytes)) and isinstance(rewrite, (str, bytes)):
        _compile(_as_bytes(pattern))
        return bind(StaticRegexReplace, (x,), {"pattern": _as_bytes(pattern), "rewrite": _as_bytes(rewrite),
                                               "replace_global": bool(replace_global)}, name=name)
    return bind(RegexReplace, (x, as_tensor(pattern, _S), as_tensor(rewrite, _S)),
                {"replace_global": bool(replace_global)}, name=name)
