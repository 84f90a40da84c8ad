"""model.summary() of functional models with branches: Keras 3's fourth column, "Connected to"
(name[node index][tensor index] of each tensor a layer's call takes), and the plain three columns for a
single chain. The expected tables are Keras 3.15.1's output on TensorFlow 2.21 (80-column output)."""
from eagerflow import keras
from eagerflow.keras import layers

TWO_INPUTS = """\
Model: "two_in"
┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃
┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩
│ a (InputLayer)      │ (None, 4)         │          0 │ -                 │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ b (InputLayer)      │ (None, 3)         │          0 │ -                 │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ da (Dense)          │ (None, 5)         │         25 │ a[0][0]           │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ db (Dense)          │ (None, 5)         │         20 │ b[0][0]           │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ cat (Concatenate)   │ (None, 10)        │          0 │ da[0][0],         │
│                     │                   │            │ db[0][0]          │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ out (Dense)         │ (None, 1)         │         11 │ cat[0][0]         │
└─────────────────────┴───────────────────┴────────────┴───────────────────┘
 Total params: 56 (224.00 B)
 Trainable params: 56 (224.00 B)
 Non-trainable params: 0 (0.00 B)
"""

RESIDUAL = """\
Model: "res"
┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃
┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩
│ x (InputLayer)      │ (None, 8)         │          0 │ -                 │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ d1 (Dense)          │ (None, 8)         │         72 │ x[0][0]           │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ d2 (Dense)          │ (None, 8)         │         72 │ d1[0][0]          │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ add (Add)           │ (None, 8)         │          0 │ d2[0][0], x[0][0] │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ act (Activation)    │ (None, 8)         │          0 │ add[0][0]         │
└─────────────────────┴───────────────────┴────────────┴───────────────────┘
 Total params: 144 (576.00 B)
 Trainable params: 144 (576.00 B)
 Non-trainable params: 0 (0.00 B)
"""

OPERATOR_RESIDUAL = """\
Model: "functional"
┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃
┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩
│ input_layer         │ (None, 8)         │          0 │ -                 │
│ (InputLayer)        │                   │            │                   │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ dense (Dense)       │ (None, 8)         │         72 │ input_layer[0][0] │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ add (Add)           │ (None, 8)         │          0 │ dense[0][0],      │
│                     │                   │            │ input_layer[0][0] │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ dense_1 (Dense)     │ (None, 2)         │         18 │ add[0][0]         │
└─────────────────────┴───────────────────┴────────────┴───────────────────┘
 Total params: 90 (360.00 B)
 Trainable params: 90 (360.00 B)
 Non-trainable params: 0 (0.00 B)
"""

CHAIN = """\
Model: "functional_2"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ input_layer_2 (InputLayer)      │ (None, 3)              │             0 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dense_4 (Dense)                 │ (None, 3)              │            12 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dense_3 (Dense)                 │ (None, 2)              │             8 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 20 (80.00 B)
 Trainable params: 20 (80.00 B)
 Non-trainable params: 0 (0.00 B)
"""

SHARED = """\
Model: "functional_3"
┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃
┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩
│ p (InputLayer)      │ (None, 3)         │          0 │ -                 │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ q (InputLayer)      │ (None, 3)         │          0 │ -                 │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ shared (Dense)      │ (None, 2)         │          8 │ p[0][0], q[0][0]  │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ add2 (Add)          │ (None, 2)         │          0 │ shared[0][0],     │
│                     │                   │            │ shared[1][0]      │
└─────────────────────┴───────────────────┴────────────┴───────────────────┘
 Total params: 8 (32.00 B)
 Trainable params: 8 (32.00 B)
 Non-trainable params: 0 (0.00 B)
"""



def _summary(model):
    lines = []
    model.summary(print_fn=lines.append)
    return "\n".join(lines) + "\n"


def test_two_inputs_joined_show_connected_to():
    a, b = keras.Input((4,), name="a"), keras.Input((3,), name="b")
    x, y = layers.Dense(5, name="da")(a), layers.Dense(5, name="db")(b)
    out = layers.Dense(1, name="out")(layers.Concatenate(name="cat")([x, y]))
    assert _summary(keras.Model([a, b], out, name="two_in")) == TWO_INPUTS


def test_residual_block_with_add_layer():
    inp = keras.Input((8,), name="x")
    h = layers.Dense(8, name="d2")(layers.Dense(8, name="d1")(inp))
    out = layers.Activation("relu", name="act")(layers.Add(name="add")([h, inp]))
    assert _summary(keras.Model(inp, out, name="res")) == RESIDUAL


def test_residual_written_with_plus_and_default_names():
    keras.backend.clear_session()
    inp = keras.Input((8,))
    h = layers.Dense(8)(inp)
    out = layers.Dense(2)(h + inp)
    assert _summary(keras.Model(inp, out)) == OPERATOR_RESIDUAL


def test_single_chain_keeps_three_columns():
    i = keras.Input((3,))
    text = _summary(keras.Model(i, layers.Dense(2)(layers.Dense(3)(i))))
    assert "Connected to" not in text
    assert text.splitlines()[1:4] == CHAIN.splitlines()[1:4]  # the three-column header, Keras' widths
    assert text.splitlines()[-4:] == CHAIN.splitlines()[-4:]


def test_shared_layer_called_twice_lists_both_nodes():
    p, q = keras.Input((3,), name="p"), keras.Input((3,), name="q")
    shared = layers.Dense(2, name="shared")
    model = keras.Model([p, q], layers.Add(name="add2")([shared(p), shared(q)]), name="functional_3")
    assert _summary(model) == SHARED
