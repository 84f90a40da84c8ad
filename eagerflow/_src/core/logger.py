"""`tf.get_logger`: the standard library logger named "tensorflow", which TensorFlow's own code and
users' code log to (its level and handlers are the user's to set)."""
import logging


def get_logger():
    return logging.getLogger("tensorflow")
