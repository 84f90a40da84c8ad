"""TensorFlow 2.21's tf.distribute names (29) and tf.distribute.experimental names (15): each one is
present, or listed in NOT_PROVIDED with its reason (and using it says that reason)."""
import pytest

import eagerflow as tf

# dir(tf.distribute) and dir(tf.distribute.experimental) of TensorFlow 2.21, public names.
TF_DISTRIBUTE = """CrossDeviceOps DistributedDataset DistributedIterator DistributedValues HierarchicalCopyAllReduce
    InputContext InputOptions InputReplicationMode MirroredStrategy MultiWorkerMirroredStrategy NcclAllReduce
    OneDeviceStrategy ParameterServerStrategy ReduceOp ReductionToOneDevice ReplicaContext RunOptions Server Strategy
    StrategyExtended TPUStrategy cluster_resolver coordinator experimental experimental_set_strategy
    get_replica_context get_strategy has_strategy in_cross_replica_context""".split()
TF_EXPERIMENTAL = """CentralStorageStrategy CollectiveCommunication CollectiveHints CommunicationImplementation
    CommunicationOptions MultiWorkerMirroredStrategy ParameterServerStrategy PreemptionCheckpointHandler
    PreemptionWatcher TPUStrategy TerminationConfig ValueContext coordinator partitioners rpc""".split()


@pytest.mark.parametrize("module, names", [(tf.distribute, TF_DISTRIBUTE),
                                           (tf.distribute.experimental, TF_EXPERIMENTAL)])
def test_every_name_is_present_or_refused_with_its_reason(module, names):
    missing = [n for n in names if n not in module.NOT_PROVIDED and not hasattr(module, n)]
    assert missing == []
    assert set(module.NOT_PROVIDED) <= set(names)
    for name, reason in module.NOT_PROVIDED.items():
        assert len(reason) > 20
        with pytest.raises(AttributeError, match=f"{name} is not provided by eagerflow: "):
            getattr(module, name)


def test_counts():
    assert len(TF_DISTRIBUTE) == 29 and len(TF_EXPERIMENTAL) == 15
    assert len([n for n in TF_DISTRIBUTE if n not in tf.distribute.NOT_PROVIDED]) == 25


def test_the_classes_are_the_strategies_they_name():
    assert issubclass(tf.distribute.MirroredStrategy, tf.distribute.Strategy)
    assert issubclass(tf.distribute.experimental.MultiWorkerMirroredStrategy, tf.distribute.MultiWorkerMirroredStrategy)
    assert tf.distribute.experimental.MultiWorkerMirroredStrategy is not tf.distribute.MultiWorkerMirroredStrategy
    assert tf.distribute.experimental.CollectiveCommunication is tf.distribute.experimental.CommunicationImplementation
    assert repr(tf.distribute.RunOptions()) == ("RunOptions(experimental_enable_dynamic_batch_size=True, "
                                                "experimental_bucketizing_dynamic_shape=False, "
                                                "experimental_xla_options=None)")


def test_bad_arguments_get_tensorflows_errors():
    with pytest.raises(ValueError, match=r"Argument `bytes_per_pack` must be >=0, Received -1\."):
        tf.distribute.experimental.CommunicationOptions(bytes_per_pack=-1)
    with pytest.raises(AssertionError, match=r"No duplicates allowed in `devices` argument: \('/job:localhost/"
                                             r"replica:0/task:0/device:CPU:0', '/job:localhost/replica:0/task:0/"
                                             r"device:CPU:0'\)"):
        tf.distribute.MirroredStrategy(devices=["/cpu:0", "/cpu:0"])
    assert str(tf.distribute.experimental.ValueContext(1, 4)) == \
        "tf.distribute.ValueContext(replica id 1,  total replicas in sync: 4)"
    assert tf.distribute.ReduceOp.from_variable_aggregation(tf.VariableAggregation.SUM) is tf.distribute.ReduceOp.SUM
    options = tf.distribute.experimental.CommunicationOptions(bytes_per_pack=50 * 1024 * 1024, timeout_seconds=120.0)
    assert (options.bytes_per_pack, options.timeout_seconds, str(options.implementation)) == \
        (52428800, 120.0, "CommunicationImplementation.AUTO")
