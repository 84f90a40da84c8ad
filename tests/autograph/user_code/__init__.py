"""User code that tests/autograph/test_user_call_forms.py calls from tf.functions, in modules of its
own, so that calls reach it through module attributes, imports, objects, containers and partials."""
