"""TensorFlow Serving's text-format configuration read through protobuf's own text format: a model config file
filled into the generated ModelServerConfig (TensorFlow Serving's field numbers), the schema-less `parse` on
protobuf's tokenizer, and errors naming the line."""
import pytest

from eagerflow.serving.text_format import TextFormatError, parse, parse_message

pytest.importorskip("google.protobuf")

MODELS = """
model_config_list {
  config {
    name: "a"  # the first model
    base_path: "/models/a"
    model_platform: "tensorflow"
    model_version_policy { specific { versions: 1 versions: 3 } }
    version_labels { key: "stable" value: 1 }
    version_labels { key: "canary" value: 3 }
  }
  config { name: 'b' base_path: "/models/b" model_version_policy { latest { num_versions: 2 } } }
}
"""


def test_a_model_config_file_fills_tensorflow_servings_message():
    from eagerflow._src.formats.protos import serving_config_pb2

    config = parse_message(MODELS, serving_config_pb2.ModelServerConfig())
    first, second = config.model_config_list.config
    assert (first.name, first.base_path, first.model_platform) == ("a", "/models/a", "tensorflow")
    assert first.model_version_policy.WhichOneof("policy_choice") == "specific"
    assert list(first.model_version_policy.specific.versions) == [1, 3]
    assert dict(first.version_labels) == {"stable": 1, "canary": 3}
    assert second.model_version_policy.latest.num_versions == 2
    # the numbers TensorFlow Serving's model_server_config.proto gives these fields
    fields = serving_config_pb2.ModelConfig.DESCRIPTOR.fields_by_name
    assert {n: fields[n].number for n in ("name", "base_path", "model_platform", "model_version_policy",
                                          "version_labels", "logging_config")} == {
        "name": 1, "base_path": 2, "model_platform": 4, "model_version_policy": 7, "version_labels": 8,
        "logging_config": 6}
    policy = serving_config_pb2.FileSystemStoragePathSourceConfig.ServableVersionPolicy.DESCRIPTOR.fields_by_name
    assert [policy[n].number for n in ("latest", "all", "specific")] == [100, 101, 102]


@pytest.mark.parametrize("text, words", [
    ('model_config_list {\n config {\n  bogus: 1 } }', 'line 3: .*has no field named "bogus"'),
    ('model_config_list {\n config { name: 3 } }', "line 2: .*Expected string"),
    ('model_config_list {\n config { name: "a" }\n', 'line 2: Expected "}"'),
])
def test_a_config_that_does_not_fit_the_schema_names_the_line(text, words):
    from eagerflow._src.formats.protos import serving_config_pb2

    with pytest.raises(TextFormatError, match=words):
        parse_message(text, serving_config_pb2.ModelServerConfig())


def test_parse_reads_protobufs_syntax():
    message = parse('s: "a\\"b\\101\\x42" \'c\'  # comment\n f: 1.5f g: -0x10 h: 1e3 m: [{x: 1}, <x: 2>] n: t;\n')
    assert message == {"s": ['a"bABc'], "f": [1.5], "g": [-16], "h": [1000.0], "m": [{"x": [1]}, {"x": [2]}],
                       "n": [True]}


@pytest.mark.parametrize("text, where", [('a: 1\nb: "open', "line 2"), ("a {\n\n b: [1, 2", "line 3"),
                                         ("a: 1\n: 2", "line 2")])
def test_parse_errors_name_the_line(text, where):
    with pytest.raises(TextFormatError, match=where):
        parse(text)
