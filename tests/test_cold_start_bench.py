"""bench/cold_start.py's machinery (not its timings): the models export in TensorFlow's format, the child
program loads one in a fresh interpreter and reports every measure, and the table compares against
issue 27's targets. TensorFlow's side runs only in the bench itself (`--tf-python`)."""
import pytest

from bench import cold_start


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cold")
    assert cold_start.export_models(folder) == "eagerflow"  # no --tf-python: eagerflow's Keras writes them
    return folder


def test_the_child_loads_a_model_and_reports_every_measure(models):
    for model, classes in (("mlp", 10), ("cnn", 10)):
        assert (models / model / "saved_model.pb").is_file()
        got = cold_start.run_once(cold_start.sys.executable, "eagerflow", models / model, calls=3)
        assert set(got) >= set(cold_start.METRICS) | {"import_ms", "load_ms", "first_prediction_ms"}
        assert got["cold_start_ms"] >= got["import_ms"] + got["load_ms"] > 0
        assert got["rss_mb"] > 10 and got["batch1_us"] > 0 and got["batch64_us"] > 0
        assert got["output_sum"] == pytest.approx(1.0, rel=1e-5)  # one softmax row of `classes` outputs


def test_the_table_names_each_target_and_verdict():
    ours = {"cold_start_ms": 50.0, "import_ms": 30.0, "load_ms": 19.0, "first_prediction_ms": 1.0,
            "rss_mb": 60.0, "batch1_us": 40.0, "batch64_us": 900.0}
    theirs = dict(ours, cold_start_ms=4000.0, rss_mb=500.0, batch1_us=300.0, batch64_us=600.0)
    table = cold_start.report({"mlp": {"eagerflow": ours, "tensorflow": theirs}})
    lines = {line.split("(")[0].strip(): line for line in table.splitlines()}
    assert lines["cold start: import + load + 1st prediction"].rstrip().endswith("0.013  <=0.10 PASS")
    assert lines["resident memory after loading"].rstrip().endswith("0.120  <=0.20 PASS")
    assert lines["serving_default latency, batch 64"].rstrip().endswith("1.500   <=1.3 MISS")
    alone = cold_start.report({"mlp": {"eagerflow": ours}})
    assert "TF 2.21" in alone and "PASS" not in alone and "MISS" not in alone
