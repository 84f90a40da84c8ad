"""`eagerflow serve`'s flags: TensorFlow Serving's names, and one clear line (exit 1) for a
configuration that cannot be served, before anything binds a port."""
import pytest

from eagerflow.__main__ import _parser, main


def test_flags_have_tensorflow_servings_names_and_defaults():
    args = _parser().parse_args(["serve", "--model_name=m", "--model_base_path=/models/m"])
    assert (args.port, args.rest_api_port, args.host) == (8500, 8501, "127.0.0.1")
    assert args.file_system_poll_wait_seconds == 1.0 and not args.enable_batching


def test_help_says_the_server_binds_loopback(capsys):
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "127.0.0.1" in text and "--model_config_file" in text and "--enable_batching" in text


@pytest.mark.parametrize("argv, message", [
    ([], "no model to serve"),
    (["--model_base_path=/x", "--model_config_file=/y"], "either --model_config_file or --model_base_path"),
    (["--model_base_path=/x", "--batching_parameters_file=/b"], "needs --enable_batching"),
    (["--model_base_path=/x", "--port=0", "--rest_api_port=0"], "no API to serve"),
    (["--model_base_path=/x", "--rest_api_port=70000"], "must be a port number"),
    (["--model_config_file=/absent/models.config"], "cannot read the model config file"),
])
def test_configuration_errors_exit_1_with_one_line(capsys, argv, message):
    assert main(["serve", *argv]) == 1
    err = capsys.readouterr().err
    assert err.startswith("eagerflow serve: error: ") and message in err


def test_cors_and_intra_op_flags_take_tensorflow_servings_forms():
    parse = _parser().parse_args
    base = ["serve", "--model_base_path=/models/m"]
    assert not parse(base).rest_api_enable_cors_support and parse(base).tensorflow_intra_op_parallelism == 0
    assert parse(base + ["--rest_api_enable_cors_support"]).rest_api_enable_cors_support is True
    assert parse(base + ["--rest_api_enable_cors_support=true"]).rest_api_enable_cors_support is True
    assert parse(base + ["--rest_api_enable_cors_support=false"]).rest_api_enable_cors_support is False
    assert parse(base + ["--tensorflow_intra_op_parallelism=1"]).tensorflow_intra_op_parallelism == 1


def test_intra_op_parallelism_without_threadpoolctl_exits_1(capsys, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "threadpoolctl", None)  # its import fails
    assert main(["serve", "--model_base_path=/x", "--tensorflow_intra_op_parallelism=1"]) == 1
    assert "--tensorflow_intra_op_parallelism needs threadpoolctl" in capsys.readouterr().err
