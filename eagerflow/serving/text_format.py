"""Protocol buffers' text format, the format of TensorFlow Serving's configuration files
(--model_config_file, --batching_parameters_file, --monitoring_config_file), read by protobuf's own text format.

`parse_message(text, message)` fills a generated message (TensorFlow Serving's ModelServerConfig,
BatchingParameters, MonitoringConfig from eagerflow/_src/formats/protos/serving_config.proto, with its field
numbers) through `google.protobuf.text_format`: the schema decides what is valid. `parse(text)` reads the syntax
only, with protobuf's own tokenizer (strings with their C escapes and adjacent-string joining, integers in any
base, floats with their `f` suffix, booleans, comments): each message becomes a dict from field name to the list
of its values (a field may repeat), a value being a str, int, float, bool, an enum name (str) or a nested dict;
config.py gives the fields their meaning and rejects unknown ones. Either way a file that is not valid text
format raises TextFormatError naming the line.
"""
from __future__ import annotations

import re

_BOOLEANS = {"true": True, "True": True, "t": True, "false": False, "False": False, "f": False}
_POSITION = re.compile(r"^(\d+):(\d+) : ")


class TextFormatError(ValueError):
    """The file is not valid text format; the message names the line."""


def _error(err) -> TextFormatError:
    """protobuf's ParseError ("3:7 : problem") as "line 3: problem"."""
    text = str(err)
    where = _POSITION.match(text)
    if where is None:
        return TextFormatError(text)
    return TextFormatError(f"line {where.group(1)}: {text[where.end():]}")


class _Reader:
    """The dict form of a text-format message, read token by token with protobuf's Tokenizer."""

    def __init__(self, text: str):
        from google.protobuf import text_format

        self.tokens = text_format.Tokenizer(text.splitlines(keepends=True))

    def fail(self, message):
        raise self.tokens.ParseError(message)

    def message(self, closing=None) -> dict:
        tokens, fields = self.tokens, {}
        while True:
            if tokens.AtEnd():
                if closing is not None:
                    self.fail(f"expected {closing!r} before the end of the file")
                return fields
            if closing is not None and tokens.TryConsume(closing):
                return fields
            if not tokens.token[:1].isalpha() and tokens.token[:1] != "_":
                self.fail(f"expected a field name, got {tokens.token!r}")
            name = tokens.ConsumeIdentifier()
            fields.setdefault(name, []).extend(self.field_values())
            if not tokens.TryConsume(","):
                tokens.TryConsume(";")

    def nested(self):
        """A `{ ... }` or `< ... >` message, when one opens here; else None."""
        if self.tokens.TryConsume("{"):
            return self.message(closing="}")
        if self.tokens.TryConsume("<"):
            return self.message(closing=">")
        return None

    def field_values(self) -> list:
        tokens = self.tokens
        if tokens.TryConsume(":"):
            if tokens.TryConsume("["):
                return self.list_values()
        nested = self.nested()
        return [nested] if nested is not None else [self.scalar()]

    def list_values(self) -> list:
        values = []
        while not self.tokens.TryConsume("]"):
            if self.tokens.AtEnd():
                self.fail("expected ']' before the end of the file")
            nested = self.nested()
            values.append(nested if nested is not None else self.scalar())
            self.tokens.TryConsume(",")
        return values

    def scalar(self):
        tokens = self.tokens
        token = tokens.token
        if token[:1] in "\"'":
            return tokens.ConsumeString()  # adjacent strings join, as in C
        if token in _BOOLEANS:
            tokens.NextToken()
            return _BOOLEANS[token]
        if token[:1].isalpha() or token[:1] == "_":
            return tokens.ConsumeIdentifier()  # an enum value's name
        if token[:1].isdigit() or token[:1] in "+-.":
            from google.protobuf import text_format

            try:
                return tokens.ConsumeInteger()
            except text_format.ParseError:  # not an integer, so a float
                return tokens.ConsumeFloat()
        self.fail(f"expected a value, got {token!r}")


def parse(text: str) -> dict:
    """The text-format message in `text` as {field: [values]}."""
    from google.protobuf import text_format

    try:
        return _Reader(text).message()
    except text_format.ParseError as err:
        raise _error(err) from None


def parse_message(text: str, message):
    """`message` (a generated message, e.g. serving_config_pb2.ModelServerConfig()) filled from `text`, checked
    against its schema; TextFormatError naming the line otherwise."""
    from google.protobuf import text_format

    try:
        return text_format.Parse(text, message)
    except text_format.ParseError as err:
        raise _error(err) from None
