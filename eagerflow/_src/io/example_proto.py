"""`tf.train.Example` and its parts (Features, Feature, BytesList, FloatList, Int64List) as small
Python classes with the protobuf API users write, serialized to the same bytes as TensorFlow's.

    tf.train.Example(features=tf.train.Features(feature={
        "age": tf.train.Feature(int64_list=tf.train.Int64List(value=[42]))}))

The wire format (tensorflow/core/example/example.proto, feature.proto): Example.features = 1;
Features.feature = 1, a map<string, Feature> (entries: key = 1, value = 2); Feature is a oneof
`kind`: bytes_list = 1, float_list = 2, int64_list = 3; each list's `value` = 1, floats and int64s
packed. Map entries are written in sorted key order (protobuf's deterministic order: TensorFlow's
own order for several features follows a hash and changes between runs). Parsing (io/wire.py)
accepts packed and unpacked lists and never executes anything; bad bytes are DecodeError.

As in protobuf, reading an unset sub-message gives an empty one, and changing it sets it
(`ex.features.feature["k"].int64_list.value.append(5)` works on an empty Example).
"""
from __future__ import annotations

import numbers
import struct

import numpy as np

from .wire import DecodeError, fields, length_delimited, packed_floats, packed_varints, signed64, varint

__all__ = ["BytesList", "DecodeError", "Example", "Feature", "Features", "FloatList", "Int64List"]


class _Message:
    """What every message class offers: bytes in and out, equality, text form."""

    def SerializeToString(self, deterministic=None):  # noqa: N802 - protobuf's name
        return self._serialize()

    @classmethod
    def FromString(cls, data):  # noqa: N802 - protobuf's name
        message = cls()
        message.MergeFromString(data)
        return message


    def ParseFromString(self, data):  # noqa: N802 - protobuf's name
        self.Clear()
        return self.MergeFromString(data)

    def MergeFromString(self, data):  # noqa: N802 - protobuf's name
        data = bytes(data)
        try:
            self._merge(data)
        except DecodeError:
            raise DecodeError(f"Error parsing message with type 'tensorflow.{type(self).__name__}': Wire format "
                              "was corrupt") from None
        self._touch()
        return len(data)

    def CopyFrom(self, other):  # noqa: N802 - protobuf's name
        if type(other) is not type(self):
            raise TypeError(f"Parameter to CopyFrom() must be instance of same class: expected {type(self).__name__} "
                            f"got {type(other).__name__}.")
        self.ParseFromString(other.SerializeToString())

    def ByteSize(self):  # noqa: N802 - protobuf's name
        return len(self._serialize())

    def __eq__(self, other):
        return type(other) is type(self) and self._serialize() == other._serialize()

    __hash__ = None

    def __str__(self):
        return "".join(line + "\n" for line in self._text_lines())

    def __repr__(self):
        return str(self)

    def _touch(self):
        hook = getattr(self, "_on_set", None)
        if hook is not None:
            self._on_set = None
            hook(self)


class _Values(list):
    """A repeated scalar field: a list that checks each value's type and marks its message set."""

    def __init__(self, owner, check, values=()):
        super().__init__(check(v) for v in values)
        self._owner, self._check = owner, check

    def append(self, value):
        super().append(self._check(value))
        self._owner._touch()

    def extend(self, values):
        super().extend(self._check(v) for v in values)
        self._owner._touch()

    def insert(self, index, value):
        super().insert(index, self._check(value))
        self._owner._touch()

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            super().__setitem__(index, [self._check(v) for v in value])
        else:
            super().__setitem__(index, self._check(value))
        self._owner._touch()

    def __iadd__(self, values):
        self.extend(values)
        return self

    def __eq__(self, other):
        return list(self) == list(other)

    __hash__ = None


def _check_bytes(value):
    if isinstance(value, (bytes, bytearray, np.bytes_)):
        return bytes(value)
    raise TypeError(f"expected bytes, {type(value).__name__} found")


def _check_int64(value):
    if not isinstance(value, (numbers.Integral, np.integer)):
        raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer")
    value = int(value)
    if not -(1 << 63) <= value < 1 << 63:
        raise ValueError(f"Value out of range: {value}")
    return value


def _check_float(value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise TypeError(f"must be real number, not {type(value).__name__}")
    return float(np.float32(value))  # stored as float32, as the proto field is


class _List(_Message):
    _check = None

    def __init__(self, value=None):
        self._value = _Values(self, type(self)._check, value or ())

    @property
    def value(self):
        return self._value

    def Clear(self):  # noqa: N802 - protobuf's name
        del self._value[:]

    def _merge(self, data):
        for number, wire, raw in fields(data):
            if number == 1:
                list.extend(self._value, self._decode(wire, raw))

    def _text_lines(self):
        return [f"value: {self._text(v)}" for v in self._value]


class BytesList(_List):
    _check = staticmethod(_check_bytes)

    def _serialize(self):
        return b"".join(length_delimited(1, v) for v in self._value)

    @staticmethod
    def _decode(wire, raw):
        if wire != 2:
            raise DecodeError()
        return [raw]

    @staticmethod
    def _text(v):
        return '"' + "".join(chr(b) if 32 <= b < 127 and b not in (34, 39, 92) else
                             ("\\" + chr(b) if b in (34, 39, 92) else f"\\{b:03o}") for b in v) + '"'


class FloatList(_List):
    _check = staticmethod(_check_float)

    def _serialize(self):
        return length_delimited(1, struct.pack(f"<{len(self._value)}f", *self._value)) if self._value else b""

    @staticmethod
    def _decode(wire, raw):
        if wire == 2:
            return packed_floats(raw)
        if wire == 5:
            return list(struct.unpack("<f", raw))
        raise DecodeError()

    @staticmethod
    def _text(v):
        text = repr(np.float32(v).item()) if not np.isfinite(v) else np.format_float_positional(
            np.float32(v), trim="-") if abs(v) >= 1e-4 and abs(v) < 1e16 or v == 0 else repr(float(np.float32(v)))
        return {"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(text, text)


class Int64List(_List):
    _check = staticmethod(_check_int64)

    def _serialize(self):
        return length_delimited(1, b"".join(varint(v) for v in self._value)) if self._value else b""

    @staticmethod
    def _decode(wire, raw):
        if wire == 2:
            return packed_varints(raw)
        if wire == 0:
            return [signed64(raw)]
        raise DecodeError()

    @staticmethod
    def _text(v):
        return str(v)


_KINDS = {"bytes_list": (1, BytesList), "float_list": (2, FloatList), "int64_list": (3, Int64List)}
_BY_NUMBER = {number: (name, cls) for name, (number, cls) in _KINDS.items()}


class Feature(_Message):
    """One of bytes_list, float_list or int64_list (the oneof `kind`)."""

    def __init__(self, bytes_list=None, float_list=None, int64_list=None):
        self._kind, self._list = None, None
        given = [(k, v) for k, v in (("bytes_list", bytes_list), ("float_list", float_list),
                                     ("int64_list", int64_list)) if v is not None]
        for kind, value in given:
            if not isinstance(value, _KINDS[kind][1]):
                raise TypeError(f"Message must be initialized with a dict or a {_KINDS[kind][1].__name__}: got "
                                f"{type(value).__name__}")
            self._set(kind, _KINDS[kind][1].FromString(value.SerializeToString()))

    def _set(self, kind, value):
        self._kind, self._list = kind, value
        self._touch()

    def _get(self, kind):
        if self._kind == kind:
            return self._list
        empty = _KINDS[kind][1]()
        empty._on_set = lambda child, kind=kind: self._set(kind, child)
        return empty

    bytes_list = property(lambda self: self._get("bytes_list"))
    float_list = property(lambda self: self._get("float_list"))
    int64_list = property(lambda self: self._get("int64_list"))

    def WhichOneof(self, oneof_group):  # noqa: N802 - protobuf's name
        if oneof_group != "kind":
            raise ValueError(f'Protocol message has no oneof "{oneof_group}" field.')
        return self._kind

    def HasField(self, field_name):  # noqa: N802 - protobuf's name
        return self._kind == field_name

    def Clear(self):  # noqa: N802 - protobuf's name
        self._kind, self._list = None, None

    def _serialize(self):
        if self._kind is None:
            return b""
        return length_delimited(_KINDS[self._kind][0], self._list._serialize())

    def _merge(self, data):
        for number, wire, raw in fields(data):
            if number in _BY_NUMBER:
                if wire != 2:
                    raise DecodeError()
                kind, cls = _BY_NUMBER[number]
                if self._kind != kind:  # a oneof: another member replaces it; the same one merges
                    self._kind, self._list = kind, cls()
                self._list._merge(raw)

    def _text_lines(self):
        if self._kind is None:
            return []
        return [f"{self._kind} {{"] + ["  " + line for line in self._list._text_lines()] + ["}"]


class _FeatureMap(dict):
    """Features.feature: reading a missing key adds an empty Feature, as a protobuf map does."""

    def __init__(self, owner):
        super().__init__()
        self._owner = owner

    def __missing__(self, key):
        if not isinstance(key, str):
            raise TypeError(f"{key!r} has type {type(key).__name__}, but expected one of: bytes, unicode")
        feature = self[key] = Feature()
        return feature

    def __setitem__(self, key, value):
        if not isinstance(value, Feature):
            raise TypeError(f"Feature map values must be tf.train.Feature, got {type(value).__name__}")
        super().__setitem__(key, value)
        self._owner._touch()

    def get_or_create(self, key):
        return self[key]


class Features(_Message):
    """A map from names to Feature."""

    def __init__(self, feature=None):
        self._feature = _FeatureMap(self)
        for key, value in (feature or {}).items():
            self._feature[key] = Feature.FromString(value.SerializeToString()) if isinstance(value, Feature) else \
                Feature(**value)

    @property
    def feature(self):
        return self._feature

    def Clear(self):  # noqa: N802 - protobuf's name
        dict.clear(self._feature)

    def _serialize(self):
        return b"".join(length_delimited(1, length_delimited(1, k.encode("utf-8")) +
                                         length_delimited(2, self._feature[k]._serialize()))
                        for k in sorted(self._feature))

    def _merge(self, data):
        for number, wire, raw in fields(data):
            if number != 1:
                continue
            if wire != 2:
                raise DecodeError()
            key, value = b"", b""
            for n, w, part in fields(raw):
                if w != 2 and n in (1, 2):
                    raise DecodeError()
                if n == 1:
                    key = part
                elif n == 2:
                    value = part
            try:
                name = key.decode("utf-8")
            except UnicodeDecodeError:
                raise DecodeError("Error parsing message: a feature name that is not UTF-8") from None
            feature = Feature()
            feature._merge(value)
            dict.__setitem__(self._feature, name, feature)

    def _text_lines(self):
        lines = []
        for key in sorted(self._feature):
            value = self._feature[key]._text_lines()
            lines += ["feature {", f'  key: "{key}"', "  value {"] + ["    " + v for v in value] + ["  }", "}"]
        return lines


class Example(_Message):
    """`features`: the Features of one example."""

    def __init__(self, features=None):
        self._features = Features()
        self._present = False
        self._features._on_set = self._mark
        if features is not None:
            if not isinstance(features, Features):
                raise TypeError(f"Message must be initialized with a dict or a Features: got {type(features).__name__}")
            self._features.MergeFromString(features.SerializeToString())
            self._present = True

    def _mark(self, _child):
        self._present = True

    @property
    def features(self):
        return self._features

    def Clear(self):  # noqa: N802 - protobuf's name
        self._features.Clear()
        self._present = False

    def HasField(self, field_name):  # noqa: N802 - protobuf's name
        return field_name == "features" and (self._present or bool(self._features.feature))

    def _serialize(self):
        if not self.HasField("features"):
            return b""
        return length_delimited(1, self._features._serialize())

    def _merge(self, data):
        for number, wire, raw in fields(data):
            if number == 1:
                if wire != 2:
                    raise DecodeError()
                self._features._merge(raw)
                self._present = True

    def _text_lines(self):
        if not self.HasField("features"):
            return []
        return ["features {"] + ["  " + line for line in self._features._text_lines()] + ["}"]
