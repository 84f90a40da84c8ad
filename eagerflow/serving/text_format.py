"""A reader for protocol buffers' text format, the format of TensorFlow Serving's configuration files
(--model_config_file, --batching_parameters_file, --monitoring_config_file).

It reads the syntax only: each message becomes a dict from field name to the list of its values (a
field may repeat), a value being a str, int, float, bool, an enum name (str) or a nested dict. The
configuration readers in config.py give the fields their meaning and reject unknown ones, so this
module needs no schema and no protobuf runtime.
"""
from __future__ import annotations

import ast
import re

_TOKEN = re.compile(r"""
    \s+ | \#[^\n]*                                    # space and comments: skipped
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<number>[-+]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)[fF]?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_.]*)
  | (?P<punct>[{}<>\[\]:,;])
""", re.VERBOSE)


class TextFormatError(ValueError):
    """The file is not valid text format; the message names the line."""


def _tokens(text: str):
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            line = text.count("\n", 0, position) + 1
            raise TextFormatError(f"line {line}: unexpected character {text[position]!r}")
        position = match.end()
        kind = match.lastgroup
        if kind is not None:
            yield kind, match.group(kind), text.count("\n", 0, match.start()) + 1


class _Parser:
    def __init__(self, text: str):
        self.tokens = list(_tokens(text))
        self.index = 0

    def peek(self):
        return self.tokens[self.index] if self.index < len(self.tokens) else (None, None, self.last_line())

    def last_line(self):
        return self.tokens[-1][2] if self.tokens else 1

    def take(self):
        token = self.peek()
        self.index += 1
        return token

    def fail(self, message):
        raise TextFormatError(f"line {self.peek()[2]}: {message}")

    def message(self, closing=None) -> dict:
        fields: dict = {}
        while True:
            kind, text, _ = self.peek()
            if kind is None:
                if closing is not None:
                    self.fail(f"expected {closing!r} before the end of the file")
                return fields
            if kind == "punct" and text == closing:
                self.take()
                return fields
            if kind != "name":
                self.fail(f"expected a field name, got {text!r}")
            self.take()
            fields.setdefault(text, []).extend(self.field_values())
            if self.peek()[0] == "punct" and self.peek()[1] in ",;":
                self.take()

    def field_values(self) -> list:
        kind, text, _ = self.peek()
        if kind == "punct" and text == ":":
            self.take()
            kind, text, _ = self.peek()
            if kind == "punct" and text == "[":
                self.take()
                return self.list_values()
        if kind == "punct" and text in "{<":
            self.take()
            return [self.message(closing="}" if text == "{" else ">")]
        return [self.scalar()]

    def list_values(self) -> list:
        values = []
        while not (self.peek()[0] == "punct" and self.peek()[1] == "]"):
            kind, text, _ = self.peek()
            if kind == "punct" and text in "{<":
                self.take()
                values.append(self.message(closing="}" if text == "{" else ">"))
            else:
                values.append(self.scalar())
            if self.peek()[0] == "punct" and self.peek()[1] == ",":
                self.take()
        self.take()
        return values

    def scalar(self):
        kind, text, _ = self.take()
        if kind == "string":
            parts = [text]
            while self.peek()[0] == "string":  # adjacent strings concatenate, as in C
                parts.append(self.take()[1])
            return "".join(ast.literal_eval(part) for part in parts)
        if kind == "number":
            body = text.rstrip("fF") if not text.lower().startswith(("0x", "-0x", "+0x")) else text
            try:
                return int(body, 0)
            except ValueError:
                return float(body)
        if kind == "name":
            return {"true": True, "True": True, "t": True, "false": False, "False": False, "f": False}.get(text, text)
        self.index -= 1
        self.fail(f"expected a value, got {text!r}")


def parse(text: str) -> dict:
    """The text-format message in `text` as {field: [values]}."""
    return _Parser(text).message()
