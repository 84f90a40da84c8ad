"""keras.utils.FeatureSpace: structured-data preprocessing (see feature_space.py)."""
from .feature_space import FeatureSpace  # noqa: F401
