"""`tf.image`: resizing, flips/rotations/crops/pads, dtype conversion and colour adjustments."""
from ..ops.image import ResizeMethod, resize  # noqa: F401
from ..ops.image_color import (adjust_brightness, adjust_contrast, adjust_gamma, convert_image_dtype,  # noqa: F401
                               grayscale_to_rgb, image_gradients, per_image_standardization, psnr,
                               random_brightness, random_contrast, random_crop, random_flip_left_right,
                               random_flip_up_down, rgb_to_grayscale, total_variation)
from ..ops.image_geometry import (central_crop, crop_to_bounding_box, flip_left_right, flip_up_down,  # noqa: F401
                                  pad_to_bounding_box, resize_with_crop_or_pad, resize_with_pad, rot90, transpose)
