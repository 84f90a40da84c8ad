"""tf.summary: scalars, histograms, text, images and graphs in event files TensorBoard reads.

    writer = tf.summary.create_file_writer("logs/run1")
    with writer.as_default():
        tf.summary.scalar("loss", loss, step=epoch)

The files are TensorFlow's: its Event and Summary messages (summary/messages.py, through `protobuf`) and the
TFRecord framing with its CRC-32C (summary/records.py) are encoded here. Installing the optional
`tensorboard` package (`pip install 'eagerflow[tensorboard]'`) gives the TensorBoard app to view them.
A Keras TensorBoard callback needs only `create_file_writer`, `as_default`, `scalar` per epoch and
`graph(model_function)`.
"""
from . import experimental
from .ops import histogram, image, scalar, should_record_summaries, text
from .trace import graph, trace_export, trace_off, trace_on
from .writer import SummaryWriter, create_file_writer, create_noop_writer, flush, record_if

__all__ = ["SummaryWriter", "create_file_writer", "create_noop_writer", "experimental", "flush", "graph",
           "histogram", "image", "record_if", "scalar", "should_record_summaries", "text", "trace_export",
           "trace_off", "trace_on"]
