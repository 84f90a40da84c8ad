"""eagerflow's implementation, kept out of the public `tf` namespace (as JAX keeps `jax._src`).

The public surface is `eagerflow/__init__.py` and the TensorFlow-named packages beside this one
(keras, summary, saved_model, train); nothing here is a stable API.
"""
