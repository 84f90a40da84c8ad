"""tf.data: input pipelines (see dataset.py)."""
