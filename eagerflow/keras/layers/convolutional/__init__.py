"""Convolution layers, one per file, on base_conv.BaseConv."""
