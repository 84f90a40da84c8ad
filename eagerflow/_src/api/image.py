"""`tf.image`: resizing, flips/rotations/crops/pads, dtype conversion and colour adjustments."""
from ..ops.image.resizing import ResizeMethod, resize  # noqa: F401
from ..ops.image.color import (adjust_brightness, adjust_contrast, adjust_gamma, convert_image_dtype,  # noqa: F401
                               grayscale_to_rgb, image_gradients, per_image_standardization, psnr,
                               random_brightness, random_contrast, random_crop, random_flip_left_right,
                               random_flip_up_down, rgb_to_grayscale, total_variation)
from ..ops.image.geometry import (central_crop, crop_to_bounding_box, flip_left_right, flip_up_down,  # noqa: F401
                                  pad_to_bounding_box, resize_with_crop_or_pad, resize_with_pad, rot90, transpose)
from ..ops.image.color_spaces import (adjust_hue, adjust_saturation, hsv_to_rgb, rgb_to_hsv, rgb_to_yiq,  # noqa: F401
                                      rgb_to_yuv, yiq_to_rgb, yuv_to_rgb)
from ..ops.image.quality import sobel_edges, ssim, ssim_multiscale  # noqa: F401
from ..ops.image.crop import crop_and_resize  # noqa: F401
from ..ops.image.patches import extract_patches  # noqa: F401
from ..ops.image.draw import draw_bounding_boxes  # noqa: F401
from ..ops.image.nms import (combined_non_max_suppression, non_max_suppression,  # noqa: F401
                             non_max_suppression_overlaps, non_max_suppression_with_scores)
from ..ops.image.random_adjust import (random_hue, random_saturation, stateless_random_brightness,  # noqa: F401
                                stateless_random_contrast, stateless_random_crop, stateless_random_flip_left_right,
                                stateless_random_flip_up_down, stateless_random_hue, stateless_random_saturation)
from ..ops.image.nms_padded import non_max_suppression_padded  # noqa: F401
from ..ops.image.decode_image import decode_bmp, decode_gif, decode_image  # noqa: F401
from ..ops.image.jpeg import decode_jpeg, encode_jpeg, extract_jpeg_shape, is_jpeg  # noqa: F401
from ..ops.image.jpeg_crop import decode_and_crop_jpeg  # noqa: F401
from ..ops.image.png import decode_png, encode_png  # noqa: F401
