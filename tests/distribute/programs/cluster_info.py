"""Prints this worker's place in the cluster as JSON, for the TF_CONFIG tests: `mpiexec ... python cluster_info.py`."""
import json

import eagerflow as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
resolver = strategy.cluster_resolver
print(json.dumps({"task": [resolver.task_type, resolver.task_id], "chief": strategy.extended.should_checkpoint,
                  "device": strategy.extended.worker_devices[0], "replicas": strategy.num_replicas_in_sync}),
      flush=True)
