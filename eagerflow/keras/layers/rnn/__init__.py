"""Recurrent layers: SimpleRNN, LSTM, GRU, their cells, RNN, and the Bidirectional/TimeDistributed wrappers. One
layer per file; keras/layers/__init__.py exports them."""
