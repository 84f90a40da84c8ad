"""Function calls as ops, control dependencies, and the TensorList ops loops accumulate into."""
