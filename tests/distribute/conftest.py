import pytest

import eagerflow as tf


@pytest.fixture
def two_cpus():
    """The CPU split into two logical devices, as TensorFlow's guide does to try MirroredStrategy; undone after."""
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    yield tf.distribute.MirroredStrategy()
    tf.config.set_logical_device_configuration(cpu, None)
    tf.distribute.experimental_set_strategy(None)
