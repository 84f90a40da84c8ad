"""What a call answers, in a form that TensorFlow's and eagerflow's answers compare in: shared by the
oracle writer (run under TensorFlow) and the test (run under eagerflow)."""


def _describe(tf, value):
    """A result as a list of [dtype name, shape] per tensor, or the type name of anything else."""
    described = []
    for item in tf.nest.flatten(value, expand_composites=True):
        if hasattr(item, "dtype") and hasattr(item, "shape") and not isinstance(item, type):
            try:
                shape = list(item.shape.as_list()) if item.shape.rank is not None else None
            except (AttributeError, ValueError):
                shape = None
            described.append([getattr(item.dtype, "name", str(item.dtype)), shape])
        else:
            described.append(type(item).__name__)
    return described


def outcome(tf, call):
    """["ok", description] when the call returns, ["raises", class name, message] when it raises."""
    try:
        value = call()
    except Exception as err:  # noqa: BLE001 - recording what each call raises is the point
        message = err.message if isinstance(err, tf.errors.OpError) else str(err)
        return ["raises", type(err).__name__, message]
    try:
        return ["ok", _describe(tf, value)]
    except Exception as err:  # noqa: BLE001
        return ["ok", [type(value).__name__, f"undescribed: {type(err).__name__}"]]
