"""The `eagerflow` command itself: --version, and both spellings of every flag."""
import subprocess
import sys

import pytest

from eagerflow.__main__ import _option_strings, _parser, normalize_flags


def test_version_names_the_package_and_the_tensorflow_api():
    done = subprocess.run([sys.executable, "-m", "eagerflow", "--version"], capture_output=True, text=True)
    assert done.returncode == 0
    assert done.stdout.startswith("eagerflow ") and "TensorFlow 2.21.0 API" in done.stdout


def test_dashes_and_underscores_name_the_same_flag():
    known = _option_strings(_parser())
    assert {"--signature_def", "--input_exprs", "--input-signature"} <= known
    assert normalize_flags(["saved-model", "run", "--signature-def", "serving_default", "--input-exprs=x=1"],
                           known) == ["saved-model", "run", "--signature_def", "serving_default", "--input_exprs=x=1"]
    assert normalize_flags(["graph", "m:f", "--input_signature", "[[2], float32]"], known)[2] == "--input-signature"
    assert normalize_flags(["--no-such-flag"], known) == ["--no-such-flag"]  # left for argparse to refuse


def test_an_unknown_flag_is_refused_with_usage():
    done = subprocess.run([sys.executable, "-m", "eagerflow", "graph", "--no-such-flag"], capture_output=True,
                          text=True)
    assert done.returncode == 2 and "usage: eagerflow graph" in done.stderr


@pytest.mark.parametrize("word", ["seed document", "seed 00"])
def test_the_help_speaks_users_language(word):
    done = subprocess.run([sys.executable, "-m", "eagerflow", "--help"], capture_output=True, text=True)
    assert word not in done.stdout
