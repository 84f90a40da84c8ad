"""`eagerflow serve`: TensorFlow Serving's REST and gRPC APIs for SavedModels (the optional extra
eagerflow[serve]). Nothing here is imported by `import eagerflow`; the command (command.py) loads the
server stack only when it runs."""
