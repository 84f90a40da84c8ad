"""Reshaping layers: Flatten, Reshape, Permute, RepeatVector, cropping, padding and upsampling. One layer per
file; keras/layers/__init__.py exports them."""
