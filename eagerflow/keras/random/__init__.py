"""`keras.random`: seeded random draws with Keras 3's `seed=` rules (an int, a SeedGenerator, or None)."""
from .draws import categorical, dropout, normal, randint, shuffle, truncated_normal, uniform  # noqa: F401
from .gamma_family import beta, binomial, gamma  # noqa: F401
from .seed_generator import SeedGenerator  # noqa: F401
