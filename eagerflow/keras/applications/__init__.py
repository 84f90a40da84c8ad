"""`keras.applications`: the ImageNet architectures Keras 3 ships, built with its layer names, layer
order and parameter counts; `weights="imagenet"` reads the official files from Keras' cache folder
(nothing is downloaded). Each family's module has its preprocess_input and decode_predictions."""
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
from .mobilenet import MobileNet  # noqa: F401
from . import imagenet_utils, resnet50, vgg16, vgg19  # noqa: F401,E402
from .efficientnet_v2 import (EfficientNetV2B0, EfficientNetV2B1, EfficientNetV2B2, EfficientNetV2B3,  # noqa: F401
                              EfficientNetV2L, EfficientNetV2M, EfficientNetV2S)
from .inception_resnet_v2 import InceptionResNetV2  # noqa: F401
from .nasnet import NASNetLarge, NASNetMobile  # noqa: F401
