"""Turns the descriptors that tools/gen_protos.py stored in each `*_pb2.py` module into message classes.

Why not protoc's own Python output: that code checks that the `protobuf` runtime is at least as new as the
protoc that wrote it, and registers its files in protobuf's default pool, where TensorFlow (when a user imports
both) registers files of the same names. Our modules carry only the serialized `FileDescriptorProto` and build
their classes in a private pool, so any `protobuf` from our floor up reads and writes the same bytes, beside
TensorFlow or without it. Importing a `*_pb2` module is what loads `protobuf`: `import eagerflow` never does.
"""
from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.internal import enum_type_wrapper

POOL = descriptor_pool.DescriptorPool()


def _message_class(descriptor):
    make = getattr(message_factory, "GetMessageClass", None)
    if make is not None:
        return make(descriptor)
    return message_factory.MessageFactory(POOL).GetPrototype(descriptor)  # protobuf before 4.22


def publish(namespace: dict, serialized: bytes) -> None:
    """Add one `.proto` file's descriptor to the pool; put its messages, enums and enum values in `namespace`."""
    name = descriptor_pb2.FileDescriptorProto.FromString(serialized).name
    POOL.AddSerializedFile(serialized)
    file = POOL.FindFileByName(name)
    namespace["DESCRIPTOR"] = file
    for message_name, descriptor in file.message_types_by_name.items():
        namespace[message_name] = _message_class(descriptor)
    for enum_name, descriptor in file.enum_types_by_name.items():
        namespace[enum_name] = enum_type_wrapper.EnumTypeWrapper(descriptor)
        for value in descriptor.values:
            namespace[value.name] = value.number
