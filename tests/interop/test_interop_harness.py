"""The harness itself: TensorFlow's process runs, sees none of eagerflow, and answers in JSON."""


def test_tensorflow_runs_alone(run_tf):
    answer = run_tf("""
        import json, sys
        import tensorflow as tf
        print(json.dumps({"version": tf.__version__, "eagerflow": "eagerflow" in sys.modules,
                          "sum": float(tf.reduce_sum(tf.constant([1.5, 2.5])))}))
    """)
    assert answer["version"].startswith("2.")
    assert answer["eagerflow"] is False
    assert answer["sum"] == 4.0
