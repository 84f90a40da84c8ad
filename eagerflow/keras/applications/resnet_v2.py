"""ResNet50V2/101V2/152V2 (He et al. 2016): pre-activation residual blocks, built by resnet.py's
ResNet with preact=True."""
from __future__ import annotations

from . import imagenet_utils
from .resnet import ResNet, stack_residual_blocks_v2


def _v2_stages(stage_blocks):
    def stack_fn(x):
        x = stack_residual_blocks_v2(x, 64, stage_blocks[0], name="conv2")
        x = stack_residual_blocks_v2(x, 128, stage_blocks[1], name="conv3")
        x = stack_residual_blocks_v2(x, 256, stage_blocks[2], name="conv4")
        return stack_residual_blocks_v2(x, 512, stage_blocks[3], stride1=1, name="conv5")
    return stack_fn


def ResNet50V2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
               classifier_activation="softmax", name="resnet50v2"):
    return ResNet(_v2_stages((3, 4, 6, 3)), True, True, name, "resnet50v2", include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation)


def ResNet101V2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="resnet101v2"):
    return ResNet(_v2_stages((3, 4, 23, 3)), True, True, name, "resnet101v2", include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation)


def ResNet152V2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="resnet152v2"):
    return ResNet(_v2_stages((3, 8, 36, 3)), True, True, name, "resnet152v2", include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation)


def preprocess_input(x, data_format=None):
    """Pixels 0-255 scaled to [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)
