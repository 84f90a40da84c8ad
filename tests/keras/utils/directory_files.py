"""Builds the same folder of files under either framework (`tf` is eagerflow in the tests, TensorFlow in
make_directory_oracle.py): PNG images of varied sizes in three classes (a nested sub-folder, a hidden
folder, a file that is not an image), .txt files and .wav files. PNG and WAV are lossless, so both
frameworks decode the same pixels and samples from their own files."""
import os

import numpy as np


def image(seed, height, width, channels=3):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, [height, width, channels]).astype(np.uint8)


def build(tf, root):
    sizes = {"cats": [(7, 5), (6, 6), (9, 4), (5, 8)], "dogs": [(4, 4), (8, 3), (6, 10)], "zebras": [(5, 5), (3, 7)]}
    n = 0
    for cls, shapes in sizes.items():
        for i, (h, w) in enumerate(shapes):
            sub = os.path.join(root, "images", cls, "nested" if (cls == "dogs" and i == 2) else "")
            os.makedirs(sub, exist_ok=True)
            name = f"{'B' if i % 2 else 'a'}{i}.png" if cls != "zebras" else f"z{i}.PNG"
            with open(os.path.join(sub, name), "wb") as f:
                f.write(tf.io.encode_png(image(n, h, w)).numpy())
            n += 1
    os.makedirs(os.path.join(root, "images", ".hidden"), exist_ok=True)
    with open(os.path.join(root, "images", ".hidden", "x.png"), "wb") as f:
        f.write(tf.io.encode_png(image(99, 3, 3)).numpy())
    with open(os.path.join(root, "images", "cats", "notes.txt"), "w") as f:
        f.write("not an image")
    for cls, texts in {"neg": ["bad film", "awful", "boring plot"], "pos": ["great", "loved it a lot", "fine", "wow"]}.items():
        os.makedirs(os.path.join(root, "texts", cls), exist_ok=True)
        for i, t in enumerate(texts):
            with open(os.path.join(root, "texts", cls, f"{i}.txt"), "w") as f:
                f.write(t)
    for cls, lengths in {"no": [5, 8], "yes": [3, 6, 4]}.items():
        os.makedirs(os.path.join(root, "audio", cls), exist_ok=True)
        for i, length in enumerate(lengths):
            samples = (np.arange(length * 2).reshape(length, 2) / 16 - 0.25).astype(np.float32)
            with open(os.path.join(root, "audio", cls, f"{i}.wav"), "wb") as f:
                f.write(tf.audio.encode_wav(samples, 8000).numpy())
