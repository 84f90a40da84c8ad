"""The layer cases of keras3_more_layers_oracle.json, shared by its writer (make_more_layers_oracle.py, run
under Keras) and its reader (test_more_layers.py): (key, layer class name, constructor kwargs, input
shapes, call kwargs)."""



def inner_layers(layers, kwargs):
    """kwargs with a wrapped layer given as ("ClassName", {config}) built from `layers` (Keras' or ours)."""
    return {k: getattr(layers, v[0])(**v[1]) if k == "layer" and isinstance(v, tuple) else v
            for k, v in kwargs.items()}


CASES = [
    ("dw1", "DepthwiseConv1D", {"kernel_size": 3, "depth_multiplier": 2}, [(2, 7, 3)], {}),
    ("dw1_same", "DepthwiseConv1D", {"kernel_size": 2, "strides": 2, "padding": "same", "activation": "relu"},
     [(2, 7, 3)], {}),
    ("dw1_dil", "DepthwiseConv1D", {"kernel_size": 3, "dilation_rate": 2, "use_bias": False}, [(1, 9, 2)], {}),
    ("sep1", "SeparableConv1D", {"filters": 4, "kernel_size": 3, "depth_multiplier": 2, "padding": "same"},
     [(2, 7, 3)], {}),
    ("sep1_stride", "SeparableConv1D", {"filters": 2, "kernel_size": 3, "strides": 2}, [(2, 8, 3)], {}),
    ("c3t_same", "Conv3DTranspose", {"filters": 4, "kernel_size": 3, "strides": 2, "padding": "same"},
     [(2, 3, 4, 5, 2)], {}),
    ("c3t_valid", "Conv3DTranspose", {"filters": 3, "kernel_size": (2, 3, 1), "strides": (3, 1, 2)},
     [(2, 3, 4, 5, 2)], {}),
    ("c3t_same_small_k", "Conv3DTranspose", {"filters": 2, "kernel_size": (1, 2, 1), "strides": (2, 3, 2),
                                             "padding": "same"}, [(1, 3, 2, 3, 2)], {}),
    ("c3t_same_odd", "Conv3DTranspose", {"filters": 2, "kernel_size": (4, 2, 3), "strides": (1, 1, 1),
                                         "padding": "same", "use_bias": False}, [(1, 3, 2, 3, 2)], {}),
]
CASES += [
    ("aap1", "AdaptiveAveragePooling1D", {"output_size": 3}, [(2, 7, 3)], {}),
    ("amp1", "AdaptiveMaxPooling1D", {"output_size": 4}, [(2, 10, 2)], {}),
    ("aap2", "AdaptiveAveragePooling2D", {"output_size": (2, 3)}, [(2, 7, 8, 3)], {}),
    ("amp2", "AdaptiveMaxPooling2D", {"output_size": 3}, [(2, 5, 7, 2)], {}),
    ("aap3", "AdaptiveAveragePooling3D", {"output_size": (2, 2, 3)}, [(1, 5, 4, 7, 2)], {}),
    ("amp3", "AdaptiveMaxPooling3D", {"output_size": 2}, [(1, 3, 5, 4, 2)], {}),
    ("aap2_up", "AdaptiveAveragePooling2D", {"output_size": (4, 5)}, [(1, 3, 2, 2)], {}),
    ("rms", "RMSNormalization", {}, [(2, 5, 6)], {}),
    ("rms_axes", "RMSNormalization", {"axis": [-2, -1], "epsilon": 0.1}, [(2, 3, 4)], {}),
]
CASES += [
    ("clstm1", "ConvLSTM1D", {"filters": 3, "kernel_size": 3, "return_sequences": True, "padding": "same"},
     [(2, 4, 6, 2)], {}),
    ("clstm2", "ConvLSTM2D", {"filters": 2, "kernel_size": 3}, [(2, 3, 5, 5, 2)], {}),
    ("clstm2_state", "ConvLSTM2D", {"filters": 2, "kernel_size": (2, 3), "strides": 2, "return_state": True,
                                    "go_backwards": True, "unit_forget_bias": False}, [(1, 3, 6, 7, 1)], {}),
    ("clstm3", "ConvLSTM3D", {"filters": 2, "kernel_size": 2, "return_sequences": True, "padding": "same",
                              "activation": "relu"}, [(1, 2, 3, 3, 4, 1)], {}),
]
CASES += [
    ("gqa", "GroupQueryAttention", {"head_dim": 4, "num_query_heads": 4, "num_key_value_heads": 2},
     [(2, 3, 6), (2, 5, 6)], {}),
    ("gqa_causal_scores", "GroupQueryAttention", {"head_dim": 3, "num_query_heads": 3, "num_key_value_heads": 1,
                                                  "use_bias": False},
     [(2, 4, 5), (2, 4, 5)], {"use_causal_mask": True, "return_attention_scores": True}),
    ("gqa_key", "GroupQueryAttention", {"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 2},
     [(1, 3, 4), (1, 5, 4), (1, 5, 3)], {}),
]

# Augmentation layers (inputs: images in 0..255 or 0..1, by the key's prefix): the deterministic settings,
# where Keras' random draws are degenerate (equal ends, probability 0 or 1) or there is nothing random,
# and inference (identity). Random behaviour is checked by statistics in test_more_augmentation.py.
CASES += [
    ("img255_gray_all", "RandomGrayscale", {"factor": 1.0}, [(2, 4, 5, 3)], {}),
    ("img255_gray_none", "RandomGrayscale", {"factor": 0.0}, [(2, 4, 5, 3)], {}),
    ("img255_gray_infer", "RandomGrayscale", {"factor": 1.0}, [(2, 4, 5, 3)], {"training": False}),
    ("img255_solarize_all", "Solarization", {}, [(2, 4, 5, 3)], {}),
    ("img01_solarize_range", "Solarization", {"value_range": (0, 1)}, [(2, 3, 3, 3)], {}),
    ("img255_solarize_infer", "Solarization", {"threshold_factor": 0.5}, [(2, 4, 5, 3)], {"training": False}),
    ("img255_invert_all", "RandomInvert", {"factor": (1.0, 1.0)}, [(2, 4, 5, 3)], {}),
    ("img01_invert_range", "RandomInvert", {"factor": (1.0, 1.0), "value_range": (0, 1)}, [(3, 3, 3)], {}),
    ("img255_invert_infer", "RandomInvert", {}, [(2, 4, 5, 3)], {"training": False}),
    ("img255_autocontrast", "AutoContrast", {}, [(2, 4, 5, 3)], {}),
    ("img01_autocontrast", "AutoContrast", {"value_range": (0, 1)}, [(2, 4, 5, 3)], {"training": False}),
    ("img255_posterize3", "RandomPosterization", {"factor": (3, 3)}, [(2, 4, 5, 3)], {}),
    ("img01_posterize1", "RandomPosterization", {"factor": (1, 1), "value_range": (0, 1)}, [(2, 4, 5, 3)], {}),
    ("img255_posterize_infer", "RandomPosterization", {"factor": 4}, [(2, 4, 5, 3)], {"training": False}),
    ("img255_degenerate_all", "RandomColorDegeneration", {"factor": (1.0, 1.0)}, [(2, 4, 5, 3)], {}),
    ("img255_degenerate_some", "RandomColorDegeneration", {"factor": (0.3, 0.3)}, [(2, 4, 5, 3)], {}),
    ("img255_degenerate_out", "RandomColorDegeneration", {"factor": (-0.8, -0.8)}, [(2, 4, 5, 3)], {}),
    ("img255_saturation_same", "RandomSaturation", {"factor": (0.5, 0.5)}, [(2, 4, 5, 3)], {}),
    ("img255_saturation_none", "RandomSaturation", {"factor": (0.0, 0.0)}, [(2, 4, 5, 3)], {}),
    ("img255_saturation_more", "RandomSaturation", {"factor": (0.7, 0.7)}, [(2, 4, 5, 3)], {}),
    ("img255_saturation_infer", "RandomSaturation", {"factor": 0.9}, [(2, 4, 5, 3)], {"training": False}),
]
CASES += [
    ("img255_crop_resize", "RandomCrop", {"height": 4, "width": 4, "seed": 5}, [(2, 3, 5, 3)], {}),
    ("img255_crop_tall", "RandomCrop", {"height": 6, "width": 2, "seed": 5}, [(2, 4, 5, 3)], {}),
    ("img255_crop_same", "RandomCrop", {"height": 4, "width": 5, "seed": 5}, [(2, 4, 5, 3)], {}),
    ("img255_crop_infer", "RandomCrop", {"height": 2, "width": 3, "seed": 5}, [(2, 4, 5, 3)], {"training": False}),
    ("img255_mixup_one", "MixUp", {}, [(1, 4, 5, 3)], {}),
    ("img255_mixup_infer", "MixUp", {"alpha": 0.5}, [(3, 4, 5, 3)], {"training": False}),
    ("img255_cutmix_one", "CutMix", {}, [(1, 4, 5, 3)], {}),
    ("img255_cutmix_infer", "CutMix", {"factor": 0.5}, [(3, 4, 5, 3)], {"training": False}),
]
CASES += [
    ("img255_sharp_same", "RandomSharpness", {"factor": (0.5, 0.5)}, [(2, 4, 5, 3)], {}),
    ("img255_sharp_blur", "RandomSharpness", {"factor": (0.0, 0.0)}, [(2, 4, 5, 3)], {}),
    ("img255_sharp_more", "RandomSharpness", {"factor": (0.9, 0.9)}, [(2, 4, 5, 3)], {}),
    ("img01_sharp_range", "RandomSharpness", {"factor": (0.8, 0.8), "value_range": (0, 1)}, [(4, 5, 3)], {}),
    ("img255_sharp_infer", "RandomSharpness", {"factor": 0.3}, [(2, 4, 5, 3)], {"training": False}),
    ("img255_hue_zero", "RandomHue", {"factor": 0.0}, [(2, 4, 5, 3)], {}),
    ("img01_hue_zero", "RandomHue", {"factor": (0.0, 0.0), "value_range": (0, 1)}, [(2, 4, 5, 3)], {}),
    ("img255_hue_infer", "RandomHue", {"factor": 0.7}, [(2, 4, 5, 3)], {"training": False}),
    ("img255_jitter_still", "RandomColorJitter", {"brightness_factor": 0.0, "contrast_factor": 0.0,
                                                  "saturation_factor": (0.5, 0.5), "hue_factor": 0.0},
     [(2, 4, 5, 3)], {}),
    ("img255_jitter_gray", "RandomColorJitter", {"saturation_factor": (0.0, 0.0)}, [(2, 4, 5, 3)], {}),
    ("img255_jitter_infer", "RandomColorJitter", {"brightness_factor": 0.2, "hue_factor": 0.3},
     [(2, 4, 5, 3)], {"training": False}),
]
CASES += [
    ("img255_equalize", "Equalization", {}, [(2, 4, 5, 3)], {}),
    ("img255_equalize_bins", "Equalization", {"bins": 16}, [(2, 6, 5, 3)], {}),
    ("img01_equalize_range", "Equalization", {"value_range": (0, 1)}, [(1, 4, 5, 3)], {}),
    ("img255_equalize_infer", "Equalization", {}, [(2, 4, 5, 3)], {"training": False}),
    ("img255_erase_never", "RandomErasing", {"factor": 0.0}, [(2, 4, 5, 3)], {}),
    ("img255_erase_infer", "RandomErasing", {}, [(2, 4, 5, 3)], {"training": False}),
    ("img255_erase_all", "RandomErasing", {"factor": (1.0, 1.0), "scale": (1.0, 1.0), "fill_value": 7.0},
     [(2, 4, 5, 3)], {}),
]
CASES += [
    ("img255_blur_all", "RandomGaussianBlur", {"factor": (1.0, 1.0), "sigma": (0.8, 0.8)}, [(2, 5, 6, 3)], {}),
    ("img255_blur_wide", "RandomGaussianBlur", {"factor": (1.0, 1.0), "kernel_size": 5, "sigma": (1.0, 1.0)},
     [(1, 6, 6, 2)], {}),
    ("img255_blur_never", "RandomGaussianBlur", {"factor": 0.0}, [(2, 4, 5, 3)], {}),
    ("img255_blur_infer", "RandomGaussianBlur", {}, [(2, 4, 5, 3)], {"training": False}),
]
CASES += [
    ("spectral_dense", "SpectralNormalization", {"layer": ("Dense", {"units": 3})}, [(2, 4)], {"training": True}),
    ("spectral_conv", "SpectralNormalization", {"layer": ("Conv2D", {"filters": 2, "kernel_size": 2}),
                                                "power_iterations": 3}, [(1, 4, 4, 2)], {"training": True}),
    ("spectral_infer", "SpectralNormalization", {"layer": ("Dense", {"units": 2})}, [(2, 3)], {}),
]
CASES += [
    ("rev_tied", "ReversibleEmbedding", {"input_dim": 7, "output_dim": 4}, [(2, 4)], {"reverse": True}),
    ("rev_untied_cap", "ReversibleEmbedding", {"input_dim": 6, "output_dim": 3, "tie_weights": False,
                                               "logit_soft_cap": 2.0}, [(2, 5, 3)], {"reverse": True}),
]
CASES += [
    ("img255_shear_none", "RandomShear", {}, [(2, 4, 5, 3)], {}),
    ("img255_shear_infer", "RandomShear", {"x_factor": 0.5, "y_factor": 0.2}, [(2, 4, 5, 3)], {"training": False}),
]
CASES += [
    ("mel_small", "MelSpectrogram", {"fft_length": 64, "sequence_stride": 16, "num_mel_bins": 8,
                                     "sampling_rate": 8000}, [(2, 200)], {}),
    ("mel_power", "MelSpectrogram", {"fft_length": 32, "sequence_stride": 8, "sequence_length": 24,
                                     "num_mel_bins": 6, "sampling_rate": 4000, "power_to_db": False,
                                     "mag_exp": 1.0, "window": "hamming"}, [(1, 100)], {}),
    ("mel_db_floor", "MelSpectrogram", {"fft_length": 32, "sequence_stride": 16, "num_mel_bins": 5,
                                        "sampling_rate": 2000, "top_db": 20.0, "ref_power": 2.0,
                                        "min_freq": 100.0, "max_freq": 900.0}, [(3, 64)], {}),
]
CASES += [
    # window=None: Keras reads string windows through SciPy, absent from the oracle's environment; the kernels
    # are set from NumPy in both anyway (test_more_layers_models.py checks the Hann/Hamming kernels)
    ("stft_log", "STFTSpectrogram", {"frame_length": 16, "frame_step": 4, "window": None}, [(2, 64, 1)], {}),
    ("stft_mag_two", "STFTSpectrogram", {"mode": "magnitude", "frame_length": 12, "fft_length": 16,
                                         "padding": "same", "window": None, "periodic": True},
     [(1, 40, 2)], {}),
    ("stft_psd", "STFTSpectrogram", {"mode": "psd", "frame_length": 8, "scaling": "spectrum", "window": None},
     [(2, 30, 1)], {}),
    ("stft_stft_expand", "STFTSpectrogram", {"mode": "stft", "frame_length": 8, "frame_step": 3,
                                             "expand_dims": True, "window": None}, [(1, 30, 2)], {}),
    ("stft_angle", "STFTSpectrogram", {"mode": "angle", "frame_length": 8, "window": None}, [(1, 24, 1)], {}),
    ("stft_real", "STFTSpectrogram", {"mode": "real", "frame_length": 8, "window": None}, [(1, 24, 1)], {}),
    ("stft_imag", "STFTSpectrogram", {"mode": "imag", "frame_length": 8, "window": None}, [(1, 24, 1)], {}),
]
CASES += [
    ("img255_randaugment_infer", "RandAugment", {"num_ops": 3, "factor": 0.7}, [(2, 4, 5, 3)], {"training": False}),
]
CASES += [
    # Keras' transposed length n * s + max(k - s, 0): a kernel smaller than its stride leaves zero rows after
    ("c2t_small_kernel", "Conv2DTranspose", {"filters": 2, "kernel_size": (1, 2), "strides": (2, 3)},
     [(1, 3, 3, 2)], {}),
]
