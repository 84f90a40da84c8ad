"""docs/reference/tf-op-types.md lists the TensorFlow op types eagerflow runs from TensorFlow's SavedModels
as the registry has them today: regenerating it changes nothing."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_op_type_page_is_current():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_tf_op_list.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_page_names_the_importers_rewrites_and_kernels():
    text = (ROOT / "docs" / "reference" / "tf-op-types.md").read_text()
    assert "| `StatefulPartitionedCall` | inlined into the calling function |" in text
    assert "| `Conv2D` | `nn.conv` |" in text
    assert "| `FusedBatchNormV3` | `nn.fused_batch_norm` |" in text
    assert "`PyFunc`" not in text and "`Placeholder`" not in text
