from .mobilenet_v2 import MobileNetV2  # noqa: F401
from .resnet import ResNet50, ResNet101, ResNet152  # noqa: F401
from .resnet_v2 import ResNet50V2, ResNet101V2, ResNet152V2  # noqa: F401
from .vgg import VGG16, VGG19  # noqa: F401
from .densenet import DenseNet121, DenseNet169, DenseNet201  # noqa: F401
from .xception import Xception  # noqa: F401
from .inception_v3 import InceptionV3  # noqa: F401
from .mobilenet_v3 import MobileNetV3Large, MobileNetV3Small  # noqa: F401
from .efficientnet import (EfficientNetB0, EfficientNetB1, EfficientNetB2, EfficientNetB3,  # noqa: F401
                           EfficientNetB4, EfficientNetB5, EfficientNetB6, EfficientNetB7)
from .convnext import ConvNeXtBase, ConvNeXtLarge, ConvNeXtSmall, ConvNeXtTiny, ConvNeXtXLarge  # noqa: F401
