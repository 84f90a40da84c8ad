"""TensorFlow's protocol buffer messages, as eagerflow reads and writes them.

Each `NAME.proto` here is written for this project with TensorFlow's message names and field numbers (only the
messages and fields eagerflow uses; unknown fields in files TensorFlow wrote are kept and ignored), and
`tools/gen_protos.py` compiles it to `NAME_pb2.py`: `from eagerflow._src.formats.protos import graph_pb2`
gives `graph_pb2.GraphDef`. The generated modules are checked in; a test regenerates them and expects no change.
Importing this package loads nothing; importing a `*_pb2` module loads the `protobuf` runtime.
"""
