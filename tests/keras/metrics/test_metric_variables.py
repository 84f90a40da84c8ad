"""Metric state variables named as Keras 3.15 names them: `name` "total", `path` "<metric>/total".

VARIABLES holds, for each metric class made with its defaults in Keras 3.15 (TF 2.21), every
variable's (name, path, shape, dtype). Keras numbers repeated default names ('auc_2') with a
session counter, so a path's metric part is compared with the counter removed.
"""
import re

import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras

VARIABLES = {'AUC': [('true_positives', 'auc_2/true_positives', (200,), 'float32'),
         ('false_positives', 'auc_2/false_positives', (200,), 'float32'),
         ('true_negatives', 'auc_2/true_negatives', (200,), 'float32'),
         ('false_negatives', 'auc_2/false_negatives', (200,), 'float32')],
 'Accuracy': [('total', 'accuracy/total', (), 'float32'), ('count', 'accuracy/count', (), 'float32')],
 'BinaryAccuracy': [('total', 'binary_accuracy/total', (), 'float32'),
                    ('count', 'binary_accuracy/count', (), 'float32')],
 'BinaryCrossentropy': [('total', 'binary_crossentropy/total', (), 'float32'),
                        ('count', 'binary_crossentropy/count', (), 'float32')],
 'BinaryIoU': [('total_confusion_matrix', 'binary_io_u_2/total_confusion_matrix', (2, 2), 'int64')],
 'CategoricalAccuracy': [('total', 'categorical_accuracy/total', (), 'float32'),
                         ('count', 'categorical_accuracy/count', (), 'float32')],
 'CategoricalCrossentropy': [('total', 'categorical_crossentropy/total', (), 'float32'),
                             ('count', 'categorical_crossentropy/count', (), 'float32')],
 'CategoricalHinge': [('total', 'categorical_hinge/total', (), 'float32'),
                      ('count', 'categorical_hinge/count', (), 'float32')],
 'ConcordanceCorrelation': [('total', 'concordance_correlation/total', (), 'float32'),
                            ('count', 'concordance_correlation/count', (), 'float32')],
 'CosineSimilarity': [('total', 'cosine_similarity/total', (), 'float32'),
                      ('count', 'cosine_similarity/count', (), 'float32')],
 'F1Score': [],
 'FBetaScore': [],
 'FalseNegatives': [('accumulator', 'false_negatives_2/accumulator', (1,), 'float32')],
 'FalsePositives': [('accumulator', 'false_positives_2/accumulator', (1,), 'float32')],
 'Hinge': [('total', 'hinge/total', (), 'float32'), ('count', 'hinge/count', (), 'float32')],
 'KLDivergence': [('total', 'kl_divergence/total', (), 'float32'),
                  ('count', 'kl_divergence/count', (), 'float32')],
 'LogCoshError': [('total', 'logcosh/total', (), 'float32'), ('count', 'logcosh/count', (), 'float32')],
 'Mean': [('total', 'mean/total', (), 'float32'), ('count', 'mean/count', (), 'float32')],
 'MeanAbsoluteError': [('total', 'mean_absolute_error/total', (), 'float32'),
                       ('count', 'mean_absolute_error/count', (), 'float32')],
 'MeanAbsolutePercentageError': [('total', 'mean_absolute_percentage_error/total', (), 'float32'),
                                 ('count', 'mean_absolute_percentage_error/count', (), 'float32')],
 'MeanIoU': [('total_confusion_matrix', 'mean_io_u/total_confusion_matrix', (3, 3), 'int64')],
 'MeanSquaredError': [('total', 'mean_squared_error/total', (), 'float32'),
                      ('count', 'mean_squared_error/count', (), 'float32')],
 'MeanSquaredLogarithmicError': [('total', 'mean_squared_logarithmic_error/total', (), 'float32'),
                                 ('count', 'mean_squared_logarithmic_error/count', (), 'float32')],
 'OneHotMeanIoU': [('total_confusion_matrix', 'one_hot_mean_io_u/total_confusion_matrix', (3, 3), 'int64')],
 'PearsonCorrelation': [('total', 'pearson_correlation/total', (), 'float32'),
                        ('count', 'pearson_correlation/count', (), 'float32')],
 'Poisson': [('total', 'poisson/total', (), 'float32'), ('count', 'poisson/count', (), 'float32')],
 'Precision': [('true_positives', 'precision_2/true_positives', (1,), 'float32'),
               ('false_positives', 'precision_2/false_positives', (1,), 'float32')],
 'PrecisionAtRecall': [('true_positives', 'precision_at_recall/true_positives', (200,), 'float32'),
                       ('false_positives', 'precision_at_recall/false_positives', (200,), 'float32'),
                       ('true_negatives', 'precision_at_recall/true_negatives', (200,), 'float32'),
                       ('false_negatives', 'precision_at_recall/false_negatives', (200,), 'float32')],
 'R2Score': [('num_samples', 'r2_score/num_samples', (), 'float32')],
 'Recall': [('true_positives', 'recall_2/true_positives', (1,), 'float32'),
            ('false_negatives', 'recall_2/false_negatives', (1,), 'float32')],
 'RecallAtPrecision': [('true_positives', 'recall_at_precision/true_positives', (200,), 'float32'),
                       ('false_positives', 'recall_at_precision/false_positives', (200,), 'float32'),
                       ('true_negatives', 'recall_at_precision/true_negatives', (200,), 'float32'),
                       ('false_negatives', 'recall_at_precision/false_negatives', (200,), 'float32')],
 'RootMeanSquaredError': [('total', 'root_mean_squared_error/total', (), 'float32'),
                          ('count', 'root_mean_squared_error/count', (), 'float32')],
 'SensitivityAtSpecificity': [('true_positives', 'sensitivity_at_specificity/true_positives', (200,), 'float32'),
                              ('false_positives', 'sensitivity_at_specificity/false_positives', (200,), 'float32'),
                              ('true_negatives', 'sensitivity_at_specificity/true_negatives', (200,), 'float32'),
                              ('false_negatives',
                               'sensitivity_at_specificity/false_negatives',
                               (200,),
                               'float32')],
 'SparseCategoricalAccuracy': [('total', 'sparse_categorical_accuracy/total', (), 'float32'),
                               ('count', 'sparse_categorical_accuracy/count', (), 'float32')],
 'SparseCategoricalCrossentropy': [('total', 'sparse_categorical_crossentropy/total', (), 'float32'),
                                   ('count', 'sparse_categorical_crossentropy/count', (), 'float32')],
 'SparseTopKCategoricalAccuracy': [('total', 'sparse_top_k_categorical_accuracy/total', (), 'float32'),
                                   ('count', 'sparse_top_k_categorical_accuracy/count', (), 'float32')],
 'SpecificityAtSensitivity': [('true_positives', 'specificity_at_sensitivity/true_positives', (200,), 'float32'),
                              ('false_positives', 'specificity_at_sensitivity/false_positives', (200,), 'float32'),
                              ('true_negatives', 'specificity_at_sensitivity/true_negatives', (200,), 'float32'),
                              ('false_negatives',
                               'specificity_at_sensitivity/false_negatives',
                               (200,),
                               'float32')],
 'SquaredHinge': [('total', 'squared_hinge/total', (), 'float32'),
                  ('count', 'squared_hinge/count', (), 'float32')],
 'Sum': [('total', 'sum/total', (), 'float32')],
 'TopKCategoricalAccuracy': [('total', 'top_k_categorical_accuracy/total', (), 'float32'),
                             ('count', 'top_k_categorical_accuracy/count', (), 'float32')],
 'TrueNegatives': [('accumulator', 'true_negatives_2/accumulator', (1,), 'float32')],
 'TruePositives': [('accumulator', 'true_positives_2/accumulator', (1,), 'float32')]}

NOT_SHIPPED = set()


AT_VALUE = ("PrecisionAtRecall", "RecallAtPrecision", "SensitivityAtSpecificity", "SpecificityAtSensitivity")


def _make(cls_name):
    cls = getattr(keras.metrics, cls_name)
    if cls_name in ("MeanIoU", "OneHotMeanIoU"):
        return cls(num_classes=3)
    if cls_name in AT_VALUE:
        return cls(0.5)
    return cls()


def _uncounted(path):
    head, _, tail = path.partition("/")
    return f"{re.sub(r'_[0-9]+$', '', head)}/{tail}"


@pytest.mark.parametrize("cls_name", [name for name in VARIABLES])
def test_metric_variables_match_keras3(cls_name):
    if cls_name in NOT_SHIPPED:
        pytest.skip(f"{cls_name} is not shipped yet")
    metric = _make(cls_name)
    got = [(v.name, v.path, tuple(v.shape.as_list()), v.dtype.name) for v in metric.variables]
    expected = VARIABLES[cls_name]
    assert [(n, _uncounted(p), s, d) for n, p, s, d in got] == [(n, _uncounted(p), s, d) for n, p, s, d in expected]
    assert all(p.startswith(metric.name + "/") for _, p, _, _ in got)


def test_explicit_name_is_the_path_prefix():
    assert [(v.name, v.path) for v in keras.metrics.Mean(name="my_mean").variables] == [
        ("total", "my_mean/total"), ("count", "my_mean/count")]
    assert [v.path for v in keras.metrics.AUC(name="auc_3").variables] == [
        "auc_3/true_positives", "auc_3/false_positives", "auc_3/true_negatives", "auc_3/false_negatives"]


def test_compiled_metric_paths_keep_the_class_name():
    """Keras 3.15: compile(metrics=['accuracy', 'mse', AUC(name='auc')]) tracks 'mse' as a
    MeanSquaredError renamed after construction, so its variables stay under 'mean_squared_error/'."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")])
    model.compile("sgd", "mse", metrics=["accuracy", "mse", keras.metrics.AUC(name="auc")])
    x = np.random.RandomState(0).rand(16, 3).astype("float32")
    model.fit(x, (x.sum(1, keepdims=True) > 1.5).astype("float32"), epochs=1, verbose=0)
    paths = [v.path for m in model.metrics for v in m.variables]
    assert paths == ["loss/total", "loss/count", "accuracy/total", "accuracy/count", "mean_squared_error/total",
                     "mean_squared_error/count", "auc/true_positives", "auc/false_positives", "auc/true_negatives",
                     "auc/false_negatives"]
