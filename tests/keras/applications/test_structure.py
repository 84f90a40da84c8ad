"""Each application built with weights=None has Keras 3's parameter counts (trainable and not), layer
names, classes and order, weight shapes in order, and input/output shapes."""
import pytest

from eagerflow import keras
from eagerflow.keras import applications
from eagerflow.keras.applications import builder

from .oracle import AUTO_NAME, ORACLE, layer_names, sha

STRUCTURE_KWARGS = {"VGG16": {"input_shape": (32, 32, 3)}, "VGG19": {"input_shape": (32, 32, 3)}}
SMALL = {"Xception": (71, 71, 3), "InceptionV3": (75, 75, 3), "InceptionResNetV2": (75, 75, 3)}


def _count(weights):
    return sum(int(w.numpy().size) for w in weights)


@pytest.mark.parametrize("name", sorted(ORACLE["structure"]))
def test_architecture_matches_keras(name):
    expected = ORACLE["structure"][name]
    keras.backend.clear_session()
    model = getattr(applications, name)(weights=None, **STRUCTURE_KWARGS.get(name, {}))
    assert model.count_params() == expected["params"]
    assert _count(model.trainable_weights) == expected["trainable"]
    assert _count(model.non_trainable_weights) == expected["non_trainable"]
    assert model.name == expected["name"]
    assert list(model.input_shape) == expected["input_shape"]
    assert list(model.output_shape) == expected["output_shape"]
    assert len(model.weights) == expected["n_weights"]
    assert sha([str(tuple(w.shape)) for w in model.weights]) == expected["weight_shapes_sha"]
    names = layer_names(model)
    if builder.symbolic_operators():
        assert len(model.layers) == expected["n_layers"]
        assert names[:4] == expected["first_layers"] and names[-4:] == expected["last_layers"]
        assert sha(names) == expected["layers_sha"]
    else:  # hard sigmoid's ReLU and ConvNeXt's sums are layers here; every named layer still matches
        named = [n for n in names if not AUTO_NAME.match(n.split(":")[0])]
        assert named[-2:] == [n for n in expected["last_layers"] if not AUTO_NAME.match(n.split(":")[0])][-2:]
        assert sha(named) == expected["named_layers_sha"]


# every headless model; 'avg' and 'max' where the families name their pooling layers differently (a symbolic
# build costs about 40 ms a layer, so not all of them)
POOLED = ("MobileNet", "MobileNetV2", "MobileNetV3Small", "ResNet50", "ConvNeXtTiny", "EfficientNetV2B0")


@pytest.mark.parametrize("key", sorted(k for k in ORACLE["pooling"]
                                       if k.endswith(":None") or k.split(":")[0] in POOLED))
def test_headless_and_pooled_outputs_match_keras(key):
    name, pooling = key.split(":")
    expected = ORACLE["pooling"][key]
    keras.backend.clear_session()
    model = getattr(applications, name)(weights=None, include_top=False, input_shape=SMALL.get(name, (32, 32, 3)),
                                        pooling=None if pooling == "None" else pooling)
    assert model.count_params() == expected["params"]
    assert list(model.output_shape) == expected["output_shape"]
    last = layer_names(model)[-1]
    if builder.symbolic_operators():
        assert len(model.layers) == expected["n_layers"]
        assert last == expected["last"]
    else:  # an unnamed activation's number counts hard sigmoid's ReLU layers (see AUTO_NAME)
        assert last.split(":")[1] == expected["last"].split(":")[1]
        assert AUTO_NAME.match(last.split(":")[0]) or last == expected["last"]


def test_classes_and_classifier_activation_shape_the_head():
    keras.backend.clear_session()
    model = applications.MobileNetV2(weights=None, alpha=0.35, input_shape=(32, 32, 3), classes=7,
                                     classifier_activation=None)
    head = model.get_layer("predictions")
    assert list(model.output_shape) == [None, 7]
    assert head.get_config()["activation"] == "linear"
    assert model.name == "mobilenetv2_0.35_32"  # Keras 3.15's name


def test_input_tensor_is_adopted():
    keras.backend.clear_session()
    image = keras.Input((32, 32, 3))
    model = applications.ResNet50(weights=None, include_top=False, input_tensor=image, pooling="avg")
    assert model.inputs[0] is image
    assert list(model.output_shape) == [None, 2048]


def test_keras_module_names():
    for module, names in {"resnet": ("ResNet50", "ResNet101", "ResNet152"), "resnet50": ("ResNet50",),
                          "resnet_v2": ("ResNet50V2", "ResNet101V2", "ResNet152V2"), "vgg16": ("VGG16",),
                          "vgg19": ("VGG19",), "densenet": ("DenseNet121", "DenseNet169", "DenseNet201"),
                          "mobilenet": ("MobileNet",), "mobilenet_v2": ("MobileNetV2",),
                          "mobilenet_v3": ("MobileNetV3Small", "MobileNetV3Large"), "xception": ("Xception",),
                          "inception_v3": ("InceptionV3",), "efficientnet": ("EfficientNetB0", "EfficientNetB7"),
                          "convnext": ("ConvNeXtTiny", "ConvNeXtXLarge"),
                          "efficientnet_v2": ("EfficientNetV2B0", "EfficientNetV2L"),
                          "inception_resnet_v2": ("InceptionResNetV2",),
                          "nasnet": ("NASNetMobile", "NASNetLarge")}.items():
        namespace = getattr(keras.applications, module)
        assert callable(namespace.preprocess_input) and callable(namespace.decode_predictions)
        for name in names:
            assert getattr(namespace, name) is getattr(keras.applications, name)
