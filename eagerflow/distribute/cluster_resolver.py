"""`tf.distribute.cluster_resolver`: where the cluster's description comes from (TF_CONFIG, or MPI's
launch)."""
from .._src.distribute.cluster import (ClusterResolver, MPIClusterResolver,  # noqa: F401
                                       SimpleClusterResolver, TFConfigClusterResolver)
