"""`keras.utils.audio_dataset_from_directory`: a batched dataset of (audio, label) from a folder of 16-bit
PCM .wav files, one sub-folder per class, with Keras 3's file order, split and label forms. Audio is
float32 [samples, channels]: cut or zero-padded to `output_sequence_length`, else batched with padding
(`padded_batch`) or as ragged rows (`ragged=True`). Resampling (`sampling_rate`) needs a resampler Keras
takes from tensorflow-io; without it Keras refuses with ImportError, and so does eagerflow (no resampler)."""
from __future__ import annotations

import numpy as np

from .directory_index import check_labels_argument, check_split_arguments, index_directory, split_datasets

AUDIO_FORMATS = (".wav",)


def audio_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None, batch_size=32,
                                 sampling_rate=None, output_sequence_length=None, ragged=False, shuffle=True,
                                 seed=None, validation_split=None, subset=None, follow_links=False, verbose=True):
    """Audio [batch, samples, channels] and labels from `directory/<class>/<file>.wav`; a pair of datasets
    for `subset="both"`."""
    from ..._src.composite.ragged_tensor import RaggedTensor
    from ..._src.data.dataset import AUTOTUNE
    from ..._src.ops.audio.wav import decode_wav
    from ..._src.ops.io.files import read_file
    check_labels_argument(labels, label_mode, class_names, "audio")
    if ragged and output_sequence_length is not None:
        raise ValueError("Cannot set both `ragged` and `output_sequence_length`")
    if sampling_rate is not None:
        if not isinstance(sampling_rate, int):
            raise ValueError(f"`sampling_rate` should have an integer value. Received: sampling_rate={sampling_rate}")
        if sampling_rate <= 0:
            raise ValueError(f"`sampling_rate` should be higher than 0. Received: sampling_rate={sampling_rate}")
        # Keras resamples with tensorflow-io; without it (as here: eagerflow has no resampler) Keras refuses so
        raise ImportError("To use the argument `sampling_rate`, you should install tensorflow_io. You can install it "
                          "via `pip install tensorflow-io`.")
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    check_split_arguments(validation_split, subset, shuffle, seed)
    seed = np.random.randint(1e6) if seed is None else seed
    paths, labels, class_names = index_directory(directory, labels, AUDIO_FORMATS, class_names, shuffle, seed,
                                                 follow_links, verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. Received: '
                         f"class_names={class_names}")
    samples = -1 if output_sequence_length is None else output_sequence_length

    def load(path):
        audio = decode_wav(read_file(path), desired_samples=samples).audio
        return RaggedTensor.from_tensor(audio) if ragged else audio

    def finish(ds):  # prefetched, then batched: padded to the longest file unless cut to a length or ragged
        ds = ds.prefetch(AUTOTUNE)
        if batch_size is None:
            return ds
        return ds.padded_batch(batch_size) if output_sequence_length is None and not ragged else ds.batch(batch_size)

    return split_datasets(directory, paths, labels, class_names, label_mode, validation_split, subset, shuffle, seed,
                          batch_size, load, "audio files", f"Allowed format(s): {AUDIO_FORMATS}", finish=finish,
                          with_file_paths=False)
