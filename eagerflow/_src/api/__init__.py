"""The `tf.<namespace>` modules; each one is an explicit import list."""
