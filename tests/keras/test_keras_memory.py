"""Create-and-drop: models with regularizers, constraints, masks, dropout and metrics, trained one
step, saved and loaded, leave nothing alive once dropped (weakref + gc), and the mask side table
empties with the tensors it describes."""
import gc
import weakref

import numpy as np

from eagerflow import keras
from eagerflow.keras.layers import masks


def test_models_with_the_new_features_dropped_leave_nothing_alive(tmp_path):
    ids = np.array([[3, 1, 0, 2], [0, 4, 4, 1]])
    y = np.array([0, 1])
    refs = []
    for i in range(200):
        m = keras.Sequential([keras.Input((4,), dtype="int32"),
                              keras.layers.Embedding(5, 3, mask_zero=True, embeddings_regularizer="l2"),
                              keras.layers.LSTM(3, dropout=0.2, recurrent_dropout=0.2,
                                                kernel_constraint=keras.constraints.MaxNorm(2.0)),
                              keras.layers.Dense(2, activity_regularizer=keras.regularizers.L1(0.01))])
        m.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
        m.train_on_batch(ids, y)
        m.predict(ids, verbose=0)
        refs += [weakref.ref(m), weakref.ref(m.layers[1].kernel), weakref.ref(m.optimizer)]
        if i % 50 == 0:
            m.save(tmp_path / "m.keras")
            loaded = keras.models.load_model(tmp_path / "m.keras")
            loaded.predict(ids, verbose=0)
            refs.append(weakref.ref(loaded))
            del loaded
        del m
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
    assert not masks._masks  # every masked eager tensor is gone (a symbolic one carries its mask itself)
