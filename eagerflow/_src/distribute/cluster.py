"""The cluster a multi-worker strategy trains on: TF_CONFIG's description, MPI's launch, and the check
that they agree.

TF_CONFIG is TensorFlow's JSON: {"cluster": {"chief": [...], "worker": [...]}, "task": {"type":
"worker", "index": 1}}. Its tasks are ordered chief first, then the workers by index, and task k of
that order must be MPI rank k; a cluster of another size than MPI's, or a task at another rank, is
a ValueError before any training.
"""
from __future__ import annotations

import json
import os


class ClusterSpec:
    """The jobs of a cluster and their task addresses (`tf.train.ClusterSpec`'s reading half)."""

    def __init__(self, cluster):
        self._cluster = {job: list(tasks) for job, tasks in (cluster or {}).items()}

    def as_dict(self):
        return {job: list(tasks) for job, tasks in self._cluster.items()}

    @property
    def jobs(self):
        return list(self._cluster)

    def num_tasks(self, job_name):
        return len(self._cluster.get(job_name, []))

    def __bool__(self):
        return bool(self._cluster)

    def __repr__(self):
        return f"ClusterSpec({self._cluster})"


class ClusterResolver:
    """`tf.distribute.cluster_resolver.ClusterResolver`: this task's place in the cluster."""
    task_type = None
    task_id = None
    rpc_layer = None

    def cluster_spec(self):
        raise NotImplementedError

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        return ""

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        return {}

    @property
    def environment(self):
        return ""


class SimpleClusterResolver(ClusterResolver):
    def __init__(self, cluster_spec, master="", task_type=None, task_id=None, environment="", num_accelerators=None,
                 rpc_layer=None):
        self._spec = cluster_spec if isinstance(cluster_spec, ClusterSpec) else ClusterSpec(cluster_spec)
        self._master = master
        self.task_type, self.task_id, self.rpc_layer = task_type, task_id, rpc_layer

    def cluster_spec(self):
        return self._spec

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        return self._master


class TFConfigClusterResolver(ClusterResolver):
    """The cluster and this task as the TF_CONFIG environment variable describes them."""

    def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
        config = tf_config()
        task = config.get("task", {})
        self.task_type = task_type if task_type is not None else task.get("type")
        self.task_id = task_id if task_id is not None else task.get("index")
        self.rpc_layer = rpc_layer if rpc_layer is not None else config.get("rpc_layer")
        self._environment = environment if environment is not None else config.get("environment", "")
        self._spec = ClusterSpec(config.get("cluster", {}))

    def cluster_spec(self):
        return self._spec

    @property
    def environment(self):
        return self._environment


class MPIClusterResolver(ClusterResolver):
    """The cluster mpiexec launched: `size` workers, this one at `rank` (eagerflow's own resolver)."""

    def __init__(self, rank, size):
        self.task_type, self.task_id = "worker", rank
        self._spec = ClusterSpec({"worker": [f"mpi-rank-{i}" for i in range(size)]} if size > 1 else {})

    def cluster_spec(self):
        return self._spec


def tf_config() -> dict:
    text = os.environ.get("TF_CONFIG", "")
    if not text.strip():
        return {}
    try:
        return json.loads(text)
    except ValueError as error:
        raise ValueError(f"TF_CONFIG is not valid JSON: {error}") from None


def task_order(spec: ClusterSpec) -> list:
    """The cluster's (task_type, index) in rank order: the chief first, then the workers."""
    cluster = spec.as_dict()
    return [("chief", i) for i in range(len(cluster.get("chief", [])))] + \
           [("worker", i) for i in range(len(cluster.get("worker", [])))]


def rank_in(resolver) -> tuple:
    """(this task's rank, the number of training tasks) by the resolver's cluster (see the docstring)."""
    order = task_order(resolver.cluster_spec())
    if not order:
        return 0, 1
    task = (resolver.task_type, int(resolver.task_id or 0))
    if task not in order:
        raise ValueError(f"TF_CONFIG's task {{'type': {task[0]!r}, 'index': {task[1]}}} is not one of the cluster's "
                         f"training tasks {order} (chief and worker jobs).")
    return order.index(task), len(order)


def check_against_mpi(resolver, rank: int, size: int):
    """ValueError when the resolver's cluster is not the one MPI launched."""
    tf_rank, tf_size = rank_in(resolver)
    if tf_size != size:
        raise ValueError(f"TF_CONFIG describes a cluster of {tf_size} training tasks (chief and workers), but MPI "
                         f"launched {size} process{'es' if size != 1 else ''}: start the job with "
                         f"`mpiexec -n {tf_size}` or fix TF_CONFIG.")
    if tf_rank != rank:
        raise ValueError(f"TF_CONFIG says this process is task {{'type': {resolver.task_type!r}, 'index': "
                         f"{resolver.task_id}}} (rank {tf_rank} in the order chief, workers), but MPI started it "
                         f"as rank {rank}.")


def is_chief(resolver) -> bool:
    """TensorFlow's rule: the chief task, or worker 0 of a cluster without one."""
    spec = resolver.cluster_spec().as_dict()
    if resolver.task_type == "chief":
        return True
    return not spec.get("chief") and resolver.task_type in ("worker", None) and int(resolver.task_id or 0) == 0
