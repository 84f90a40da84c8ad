"""One converter per construct; pipeline.py runs them in order (see `PIPELINE` there)."""
