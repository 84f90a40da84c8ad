"""Pooling layers: windows (max, average) and global reductions, one class per file."""
