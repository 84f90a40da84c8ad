"""Merging layers: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot and their functional
forms. One layer per file; keras/layers/__init__.py exports them."""
