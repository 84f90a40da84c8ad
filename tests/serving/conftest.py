import pytest

pytest.importorskip("uvicorn", reason="eagerflow[serve] is not installed")
pytest.importorskip("starlette", reason="eagerflow[serve] is not installed")
