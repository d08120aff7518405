# case: x117_dtype_concat_int_and_float_features
# source: https://github.com/stephen-v/zh-NER-keras/issues/26
# category: dtype-mismatch
# expect: error
# raises on TF 2.21: TypeError
# line: 14
# also: -
# fix: tf.concat needs one dtype; cast first: tf.concat([tf.cast(counts, tf.float32), ratios], 0).

import tensorflow as tf


def featurize(counts, ratios):
    features = tf.concat([counts, ratios], axis=0)
    return features


ds = tf.data.Dataset.from_tensor_slices(([[1, 2], [3, 4]], [[0.5], [0.25]]))
for row in ds.map(featurize):
    print(row)
