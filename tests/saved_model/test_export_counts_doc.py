"""docs/guide/saving.md states how many op types export and how many are left: the numbers are the
op registry's (coverage.py), so a rule added or an op type placed in NOT_EXPORTED updates the guide."""
import pathlib
import re

from eagerflow._src.formats.graph_export.coverage import export_kind
from eagerflow._src.ops.registry import OPS
from eagerflow.saved_model.graph_io import register_every_op

GUIDE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "guide" / "saving.md"


def test_the_guide_states_the_registrys_export_counts():
    register_every_op()
    kinds = [export_kind(name) for name in OPS]
    generic, rule = kinds.count("generic"), kinds.count("rule")
    text = " ".join(GUIDE.read_text().split())
    stated = re.search(r"What exports: (\d+) of the (\d+) op types \((\d+) as TensorFlow's op of the same type, "
                       r"(\d+) by a rule", text)
    assert stated, "the guide's 'What exports: N of the M op types' sentence"
    assert [int(g) for g in stated.groups()] == [generic + rule, len(OPS), generic, rule]
    left = re.search(r"The (\d+) op types left", text)
    assert left and int(left.group(1)) == len(OPS) - generic - rule
