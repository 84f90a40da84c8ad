"""tf.distribute's machinery: strategies, replica contexts, distributed values and datasets, and the
collectives between processes (MPI through mpi4py, loaded only when a multi-worker strategy is made).

The public names are re-exported by eagerflow/distribute/. Keras reaches the few hooks it needs
(keras_support.py) from below the keras floor.
"""
