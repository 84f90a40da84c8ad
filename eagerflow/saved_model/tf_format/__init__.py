"""The SavedModel in TensorFlow's layout: saved_model.pb (a SavedModel message), the variables
as a tensor bundle, fingerprint.pb and assets/. The messages are built as plain data with the
messages' field names (readable in tests) and filled into the generated protobuf classes at the
end (graph_export/proto_fill.py)."""
