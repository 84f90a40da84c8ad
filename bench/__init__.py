"""eagerflow's benchmark suite: `python -m bench [name-filter] [--repeat N] [--quick] [--json out.json]`.

Every workload is timed as several variants (eagerflow, a hand-written NumPy floor, and TensorFlow,
PyTorch or JAX when they can be imported) and reported as ratios. Add a workload by adding a module
under bench/workloads/ (see bench/workloads/__init__.py and bench/harness.py:Workload).
"""
