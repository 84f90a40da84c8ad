"""TensorFlow Serving's configuration files in text format: models, version policies, labels,
batching and monitoring parameters, and the errors for files that cannot be used."""
import pytest

from eagerflow.serving.config import (BatchingParameters, ConfigError, VersionPolicy, read_batching_parameters,
                                      read_model_config_file, read_monitoring_config)
from eagerflow.serving.text_format import TextFormatError, parse


def test_text_format_nested_messages_repeated_fields_and_scalars():
    message = parse("""
        # a comment
        a: 1  b: -2.5e1 c: "x\\ty" 'z' d: true e: ENUM_NAME
        m { n: 1 n: 2 } m < n: [3, 4] >
        list: [1, 2, 3]; hex: 0x1F
    """)
    assert message["a"] == [1] and message["b"] == [-25.0] and message["c"] == ["x\tyz"]
    assert message["d"] == [True] and message["e"] == ["ENUM_NAME"]
    assert message["m"] == [{"n": [1, 2]}, {"n": [3, 4]}]
    assert message["list"] == [1, 2, 3] and message["hex"] == [31]


@pytest.mark.parametrize("text, where", [("a { b: 1", "line 1"), ("a: 1\n b: @", "line 2"), ("a: }", "line 1")])
def test_text_format_errors_name_the_line(text, where):
    with pytest.raises(TextFormatError, match=where):
        parse(text)


def _write(tmp_path, text, name="models.config"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_model_config_list_with_every_version_policy_and_labels(tmp_path):
    models = read_model_config_file(_write(tmp_path, """
        model_config_list {
          config { name: "a" base_path: "/m/a" model_platform: "tensorflow" }
          config { name: "b" base_path: "/m/b" model_version_policy { latest { num_versions: 2 } } }
          config { name: "c" base_path: "/m/c" model_version_policy { all {} } }
          config { name: "d" base_path: "/m/d" model_version_policy { specific { versions: 1 versions: 3 } }
                   version_labels { key: "stable" value: 1 } version_labels { key: "canary" value: 3 } }
        }"""))
    assert [(m.name, m.base_path) for m in models] == [("a", "/m/a"), ("b", "/m/b"), ("c", "/m/c"), ("d", "/m/d")]
    assert models[0].policy == VersionPolicy("latest", 1)
    assert models[1].policy == VersionPolicy("latest", 2)
    assert models[2].policy == VersionPolicy("all")
    assert models[3].policy == VersionPolicy("specific", versions=(1, 3))
    assert models[3].labels == {"stable": 1, "canary": 3}


def test_version_policies_choose_from_the_folders_found():
    found = [1, 2, 5, 10]
    assert VersionPolicy("latest").choose(found) == {10}
    assert VersionPolicy("latest", 3).choose(found) == {2, 5, 10}
    assert VersionPolicy("all").choose(found) == {1, 2, 5, 10}
    assert VersionPolicy("specific", versions=(2, 7)).choose(found) == {2}
    assert VersionPolicy("latest").choose([]) == set()


@pytest.mark.parametrize("text, message", [
    ('model_config_list { config { name: "a" base_path: "/x" bogus: 1 } }', "unknown field 'bogus'"),
    ('model_config_list { config { name: "a" } }', "needs a name and a base_path"),
    ('model_config_list { config { name: "a" base_path: "/x" model_version_policy { all {} latest {} } } }',
     "exactly one of latest, all, specific"),
    ('model_config_list { config { name: "a" base_path: "/x" } config { name: "a" base_path: "/y" } }',
     "configured more than once"),
    ('model_config_list { config { name: 3 base_path: "/x" } }', "'name' must be a string"),
    ('model_config_list { config { name: "a" base_path: "/x" model_platform: "pytorch" } }', "not served"),
])
def test_model_config_errors(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        read_model_config_file(_write(tmp_path, text))


def test_missing_config_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read the model config file"):
        read_model_config_file(str(tmp_path / "absent.config"))


def test_batching_parameters_with_wrapper_values_and_defaults(tmp_path):
    params = read_batching_parameters(_write(tmp_path, """
        max_batch_size { value: 32 } batch_timeout_micros { value: 2000 }
        num_batch_threads { value: 2 } allowed_batch_sizes: 8 allowed_batch_sizes: 16 allowed_batch_sizes: 32
    """, "batching.config"))
    assert params == BatchingParameters(max_batch_size=32, batch_timeout_micros=2000, max_enqueued_batches=10,
                                        num_batch_threads=2, allowed_batch_sizes=(8, 16, 32))
    assert read_batching_parameters(None) == BatchingParameters()


@pytest.mark.parametrize("text, message", [
    ("max_batch_size { value: 0 }", "max_batch_size must be positive"),
    ("max_batch_size { value: 32 } allowed_batch_sizes: 8 allowed_batch_sizes: 16", "must equal max_batch_size"),
    ("max_batch_size { value: 8 } allowed_batch_sizes: 8 allowed_batch_sizes: 4", "strictly increasing"),
    ("max_batch_size: 8", "must be a message"),
])
def test_batching_parameter_errors(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        read_batching_parameters(_write(tmp_path, text, "batching.config"))


def test_monitoring_config(tmp_path):
    on = read_monitoring_config(_write(tmp_path, "prometheus_config { enable: true }", "m.config"))
    assert on.prometheus_enabled and on.prometheus_path == "/monitoring/prometheus/metrics"
    custom = read_monitoring_config(_write(tmp_path, 'prometheus_config { enable: true, path: "/metrics" }', "n"))
    assert custom.prometheus_path == "/metrics"
    assert not read_monitoring_config(None).prometheus_enabled
