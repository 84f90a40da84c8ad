"""ArgMax and ArgMin share one shape rule; run from many threads, each names its own op in its
errors (the rule used to read the op name from a module-level slot that the other op rewrote)."""
import pytest

import eagerflow as tf
from eagerflow._src.core.errors import InvalidArgumentError
from eagerflow._src.core.shape import TensorShape
from eagerflow._src.ops.math.reduce import ArgMax, ArgMin
from eagerflow._src.ops.registry import Spec
from tests.threads import fast_thread_switches, in_threads, yield_between_opcodes_of  # noqa: F401

pytestmark = pytest.mark.usefixtures("fast_thread_switches")
STRINGS = Spec(TensorShape([3]), tf.string)  # not an allowed input dtype of either op
AXIS = Spec(TensorShape([]), tf.int32)


def _op_named_in_error(opdef):
    try:
        opdef.infer([STRINGS, AXIS], {})
    except InvalidArgumentError as err:
        return "ArgMax" if "{{node ArgMax}}" in str(err) else "ArgMin" if "{{node ArgMin}}" in str(err) else str(err)
    return "no error"


def test_argmax_and_argmin_rules_name_their_own_op_in_one_thread():
    assert _op_named_in_error(ArgMax) == "ArgMax"
    assert _op_named_in_error(ArgMin) == "ArgMin"


def test_argmax_and_argmin_rules_name_their_own_op_under_threads():
    def work(i):
        opdef = (ArgMax, ArgMin)[i % 2]
        return {_op_named_in_error(opdef) for _ in range(20)}, opdef.name

    results = in_threads(work, 8, trace=yield_between_opcodes_of(ArgMax.infer.__code__))
    assert all(names == {expected} for names, expected in results), results
