"""MultiWorkerMirroredStrategy across processes (mpiexec -n 2 and -n 4): the collectives, dataset
sharding, Keras fit matching one process on the global batch, the custom-loop guide, TF_CONFIG
checks and a failing worker. Skipped, saying why, when MPI is not installed."""
import json

import numpy as np
import pytest

import eagerflow as tf

from .launch import NEEDS_MPI, mpirun

pytestmark = NEEDS_MPI


def _weights(path):
    data = np.load(path)
    return [data[f"arr_{i}"] for i in range(len([k for k in data.files if k.startswith("arr_")]))], data


@pytest.fixture(scope="module")
def checks(tmp_path_factory):
    out = tmp_path_factory.mktemp("checks")
    for i in range(3):  # three record files for FILE sharding: worker 0 reads files 0 and 2, worker 1 file 1
        with tf.io.TFRecordWriter(str(out / f"f{i}.tfrecord")) as writer:
            for j in range(4):
                writer.write(str(i * 4 + j).encode())
    mpirun(2, "strategy_checks.py", out)
    return [json.loads((out / f"rank{r}.json").read_text()) for r in range(2)]


def test_cluster_replicas_and_chief(checks):
    assert [c["num_replicas_in_sync"] for c in checks] == [2, 2]
    assert [c["devices"] for c in checks] == [["/job:worker/replica:0/task:0/device:CPU:0"],
                                              ["/job:worker/replica:0/task:1/device:CPU:0"]]
    assert [c["should_checkpoint"] for c in checks] == [True, False]
    assert [c["replica_id"] for c in checks] == [0, 1]


def test_variables_take_the_chiefs_initial_value(checks):
    assert [c["variable"] for c in checks] == [10.0, 10.0]


def test_collectives(checks):
    for c in checks:  # replica r contributes x * (r + 1), x = [1, 2]
        assert c["all_reduce_sum"] == [3.0, 6.0] and c["all_reduce_mean"] == [1.5, 3.0]
        # worker r holds [r] * (r + 1): [0] and [1, 1]
        assert c["reduce_sum_axis0"] == 2.0 and c["reduce_mean_axis0"] == pytest.approx(2 / 3)
        assert c["reduce_sum"] == [1.0, 2.0] and c["gather"] == [0.0, 1.0, 1.0]
        assert c["traced"] == [[1.0, 2.0], [1.0, 2.0]]  # the all-reduce inside a tf.function, called twice


def test_distributed_variables_across_workers(checks):
    # TensorFlow 2.21's answers with MirroredStrategy on two logical CPUs (replica r writes r + 1).
    for c in checks:
        assert c["variable_types"] == ["SyncOnReadVariable", "MirroredVariable"]
        assert c["on_read"] == [3.0, 1.5]  # SUM and MEAN of the replicas' own values
        assert c["on_write"] == [3.0, 1.5]  # written combined, the same on every worker
        assert c["on_read_assigned"] == [5.0, 10.0]
        assert c["traced_on_write"] == 7.0  # 3 + two steps adding 1 on each of the 2 replicas
    assert [c["on_read_local"] for c in checks] == [1.0, 2.0]


def test_data_sharding_covers_every_element_once(checks):
    for policy in ("data", "auto"):
        assert checks[0][policy] == [[0, 1], [4, 5], [8, 9], [12, 13], [16, 17]]
        assert sorted(sum(checks[0][policy] + checks[1][policy], [])) == list(range(20))
    assert checks[0]["off"] == checks[1]["off"] == [[0, 1], [2, 3], [4, 5], [6, 7]]  # OFF: every worker, all of it
    assert checks[0]["from_function"] == [[0, 2], [4, 6], [8, 10]] and checks[1]["from_function"][0] == [1, 3]


def test_file_sharding_gives_each_worker_its_own_files(checks):
    for policy in ("file", "file_auto"):
        assert sum(checks[0][policy], []) == [0, 1, 2, 3, 8, 9, 10, 11]  # files 0 and 2
        assert sum(checks[1][policy], []) == [4, 5, 6, 7]  # file 1
    assert checks[0]["file_error"].startswith("Found an unshardable source dataset")


@pytest.fixture(scope="module")
def one_process(tmp_path_factory):
    """One process training on the global batch: the reference for every multi-process run."""
    results = {}
    for model, data in (("mlp", "arrays"), ("cnn", "dataset")):
        out = tmp_path_factory.mktemp(f"one_{model}")
        mpirun(1, "fit_models.py", out, model, data, 32, 2, 0)
        results[model, data] = _weights(out / "rank0.npz")
    return results


def _assert_same_training(out, processes, reference):
    ref_weights, ref = reference
    runs = [_weights(out / f"rank{r}.npz") for r in range(processes)]
    for weights, data in runs:
        for got, want in zip(weights, ref_weights):  # float32 sums in another order: within 1e-6
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        history, ref_history = json.loads(str(data["history"])), json.loads(str(ref["history"]))
        for name in ref_history:
            np.testing.assert_allclose(history[name], ref_history[name], rtol=1e-5)
        np.testing.assert_allclose(data["evaluation"], ref["evaluation"], rtol=1e-5)
        np.testing.assert_allclose(data["prediction"], ref["prediction"], rtol=1e-5, atol=1e-6)
    for weights, _ in runs[1:]:  # every worker holds exactly the chief's weights
        for got, want in zip(weights, runs[0][0]):
            np.testing.assert_array_equal(got, want)


def test_two_workers_fit_the_mnist_mlp_like_one_process(tmp_path, one_process):
    result = mpirun(2, "fit_models.py", tmp_path, "mlp", "arrays", 32, 2, 1)  # shuffled arrays, progress shown
    _assert_same_training(tmp_path, 2, one_process["mlp", "arrays"])
    assert result.stdout.count("Epoch 1/2") == 1  # the chief's progress line only


def test_two_workers_fit_a_cnn_on_a_sharded_dataset_like_one_process(tmp_path, one_process):
    mpirun(2, "fit_models.py", tmp_path, "cnn", "dataset", 32, 2, 0)
    _assert_same_training(tmp_path, 2, one_process["cnn", "dataset"])


def test_four_workers_on_two_cores(tmp_path, one_process):
    mpirun(4, "fit_models.py", tmp_path, "mlp", "arrays", 32, 2, 0)
    _assert_same_training(tmp_path, 4, one_process["mlp", "arrays"])


def test_jit_compiled_steps_keep_xla_and_all_reduce_between_the_halves(tmp_path, one_process):
    pytest.importorskip("jax", reason="jit_compile=True needs the xla extra (JAX)")
    (tmp_path / "one").mkdir()
    mpirun(1, "fit_models.py", tmp_path / "one", "mlp-jit", "arrays", 32, 2, 0)
    mpirun(2, "fit_models.py", tmp_path, "mlp-jit", "arrays", 32, 2, 0)
    _assert_same_training(tmp_path, 2, _weights(tmp_path / "one" / "rank0.npz"))


@pytest.fixture(scope="module")
def custom_loop_runs(tmp_path_factory):
    """The custom-loop program run by two workers and by one process (the reference), once for the tests below."""
    out = tmp_path_factory.mktemp("custom_loop")
    mpirun(2, "custom_loop.py", out)
    (out / "one").mkdir()
    mpirun(1, "custom_loop.py", out / "one")
    return out


def test_the_custom_loop_guide(custom_loop_runs):
    tmp_path = custom_loop_runs
    ref_weights, ref = _weights(tmp_path / "one" / "rank0.npz")
    for r in range(2):
        weights, data = _weights(tmp_path / f"rank{r}.npz")
        for got, want in zip(weights, ref_weights):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(data["losses"], ref["losses"], rtol=1e-5)


def test_metric_results_in_a_custom_loop_are_the_whole_jobs(custom_loop_runs):
    """The guide's metrics, made in the scope and updated inside strategy.run: on every worker,
    `result()` (eagerly and in a tf.function) and the state read outside the replicas are what one
    process computes over all the data, while each worker's own part holds only its batches."""
    tmp_path = custom_loop_runs
    _, ref = _weights(tmp_path / "one" / "rank0.npz")
    # train accuracy, test loss, test accuracy, test accuracy read in a tf.function, test loss's total and count
    assert ref["results"][:, 5].tolist() == [40.0, 40.0]
    parts = []
    for r in range(2):
        _, data = _weights(tmp_path / f"rank{r}.npz")
        np.testing.assert_allclose(data["results"], ref["results"], rtol=1e-6)
        parts.append(data["parts"])
    np.testing.assert_allclose(parts[0] + parts[1], ref["parts"], rtol=1e-6)
    assert parts[0][:, 1].tolist() == parts[1][:, 1].tolist() == [32.0, 32.0]  # train accuracy's count: half each
    assert parts[0][:, 5].tolist() == parts[1][:, 5].tolist() == [20.0, 20.0]  # test loss's count


CHIEF = {"cluster": {"chief": ["host0:2222"], "worker": ["host1:2222"]}, "task": {"type": "chief", "index": 0}}
WORKER = {"cluster": CHIEF["cluster"], "task": {"type": "worker", "index": 0}}


def _json_objects(text):
    """Every JSON object printed by the ranks: mpiexec may forward two ranks' lines joined on one line."""
    decoder, found, at = json.JSONDecoder(), [], text.find("{")
    while at != -1:
        value, end = decoder.raw_decode(text, at)
        found.append(value)
        at = text.find("{", end)
    return found


def test_tf_config_that_matches_the_launch():
    result = mpirun(2, "cluster_info.py", per_rank_env=[{"TF_CONFIG": json.dumps(CHIEF)},
                                                        {"TF_CONFIG": json.dumps(WORKER)}])
    seen = sorted(_json_objects(result.stdout), key=json.dumps)
    assert seen == sorted([
        {"task": ["chief", 0], "chief": True, "device": "/job:chief/replica:0/task:0/device:CPU:0", "replicas": 2},
        {"task": ["worker", 0], "chief": False, "device": "/job:worker/replica:0/task:0/device:CPU:0",
         "replicas": 2}], key=json.dumps)


def test_tf_config_that_disagrees_with_mpi_is_an_error_before_training():
    swapped = mpirun(2, "cluster_info.py", per_rank_env=[{"TF_CONFIG": json.dumps(WORKER)},
                                                         {"TF_CONFIG": json.dumps(CHIEF)}], check=False)
    assert swapped.returncode != 0
    # Both ranks fail, each naming itself; mpiexec may interleave their tracebacks, so one whole line suffices.
    assert ("ValueError: TF_CONFIG says this process is task {'type': 'worker', 'index': 0} (rank 1 in the order "
            "chief, workers), but MPI started it as rank 0." in swapped.stderr
            or "ValueError: TF_CONFIG says this process is task {'type': 'chief', 'index': 0} (rank 0 in the order "
            "chief, workers), but MPI started it as rank 1." in swapped.stderr)
    three = {"cluster": {"worker": ["a:1", "b:1", "c:1"]}, "task": {"type": "worker", "index": 0}}
    wrong_size = mpirun(2, "cluster_info.py", per_rank_env=[{"TF_CONFIG": json.dumps(three)}] * 2, check=False)
    assert wrong_size.returncode != 0
    assert "TF_CONFIG describes a cluster of 3 training tasks (chief and workers), but MPI launched 2 processes" \
        in wrong_size.stderr


@pytest.mark.parametrize("how", ["exit", "hang"])
def test_a_failing_worker_ends_the_job(how):
    import time
    start = time.monotonic()
    result = mpirun(2, "worker_dies.py", how, check=False, timeout=120)
    assert time.monotonic() - start < 60  # the job ended, it did not hang
    assert "finished training" not in result.stdout
    # The exit status is the launcher's: MPICH 4.1.3's mpiexec (CI's oldest stage) once ended such a job with
    # status 0 and no output at all after killing the surviving rank; later MPICH releases report the failure.
    assert result.returncode != 0 or (how == "exit" and result.stdout == result.stderr == "")
    if how == "hang":
        assert "An all-reduce did not complete within 5 s on worker 0 of 2" in result.stderr


def test_a_worker_that_aborts_the_job_removes_its_temporary_folders(tmp_path):
    result = mpirun(2, "worker_dies.py", "chief-hangs", tmp_path, check=False, timeout=120)
    assert "did not complete within 5 s on worker 1 of 2" in result.stderr  # the next epoch's shuffle
    assert (tmp_path / "ckpt" / "w.weights.h5").exists()  # the chief's checkpoint of epoch 1
    assert list(tmp_path.rglob("workertemp_*")) == []


def _files(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_only_the_chief_writes_checkpoints_backups_and_logs(tmp_path):
    mpirun(2, "callbacks_run.py", tmp_path, "full")
    files = _files(tmp_path)
    assert [f for f in files if "workertemp" in f] == []
    assert [f for f in files if f.startswith("ckpt/")] == [f"ckpt/w-{e}.weights.h5" for e in range(1, 5)]
    assert len([f for f in files if f.startswith("logs/train/events.out.tfevents")]) == 1
    assert not (tmp_path / "backup").exists()  # a finished fit deletes its backup


def test_a_restarted_job_resumes_from_the_backup_with_the_same_weights_everywhere(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "restarted").mkdir()
    mpirun(2, "callbacks_run.py", tmp_path / "full", "full")
    failed = mpirun(2, "callbacks_run.py", tmp_path / "restarted", "interrupt", check=False)
    assert failed.returncode != 0 and "RuntimeError: interrupted" in failed.stderr
    assert sorted(p.name for p in (tmp_path / "restarted" / "backup").iterdir()) == \
        ["latest.optimizer.npz", "latest.weights.h5", "training_metadata.json"]
    assert [f for f in _files(tmp_path / "restarted") if "workertemp" in f] == []  # removed on the way out
    # What workers killed outright would leave: worker 1's own folders, and one of a task id this job lacks.
    for stale in ("ckpt/workertemp_1/w-9.weights.h5", "workertemp_1/backup/latest.weights.h5",
                  "logs/workertemp_5/events.out.tfevents.old"):
        (tmp_path / "restarted" / stale).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "restarted" / stale).write_text("left by an earlier run")
    mpirun(2, "callbacks_run.py", tmp_path / "restarted", "resume")
    leftovers = [p.name for p in (tmp_path / "restarted").rglob("workertemp_*")]
    assert leftovers == []  # removed when the next fit starts
    full = np.load(tmp_path / "full" / "result0.npz")
    for r in range(2):
        resumed = np.load(tmp_path / "restarted" / f"result{r}.npz")
        for i in range(4):
            np.testing.assert_array_equal(resumed[f"arr_{i}"], full[f"arr_{i}"])
        full_losses = json.loads(str(full["history"]))["loss"]
        assert json.loads(str(resumed["history"]))["loss"] == full_losses[2:]  # epochs 3 and 4 only


def _assert_logs_close(got, want):
    assert sorted(got) == sorted(want)
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=0, atol=1e-6, err_msg=name)


def test_fit_and_evaluate_logs_are_the_global_batchs_for_even_and_uneven_shards(tmp_path):
    mpirun(2, "exact_logs.py", tmp_path)
    for rank in range(2):
        results = json.loads((tmp_path / f"logs{rank}.json").read_text())
        for case in ("even", "uneven"):
            got, want = results[case]["distributed"], results[case]["one_process"]
            _assert_logs_close(got["history"], want["history"])
            _assert_logs_close(got["evaluation"], want["evaluation"])
            assert len(got["batches"]) == len(want["batches"]) == 8
            for got_batch, want_batch in zip(got["batches"], want["batches"]):
                _assert_logs_close(got_batch, want_batch)
            for got_w, want_w in zip(got["weights"], want["weights"]):
                np.testing.assert_allclose(got_w, want_w, rtol=1e-5, atol=1e-6)
