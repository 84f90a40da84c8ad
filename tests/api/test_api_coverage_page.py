"""docs/reference/api-coverage.md says what eagerflow has today: regenerating it changes nothing."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_coverage_page_is_current():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_api_coverage.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_page_counts_names_eagerflow_has_and_lists_those_it_lacks():
    text = (ROOT / "docs" / "reference" / "api-coverage.md").read_text()
    assert "| `tf.errors` | 35 | 35 |" in text  # every one of TensorFlow's error classes
    assert "| `tf.distribute` |" in text
    missing = text.split("## Names eagerflow does not have", 1)[1]
    assert "`tf.errors`" not in missing
