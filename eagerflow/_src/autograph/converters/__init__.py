"""One converter per construct; transform.py runs them in order (see `PIPELINE` there)."""
