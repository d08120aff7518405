# case: x216_clean_input_signature_varied_batch
# source: https://github.com/tensorflow/tensorflow/issues/34025
# category: retracing
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: Nothing to fix: an input_signature with None dimensions makes one trace serve every batch size and sequence length.

import tensorflow as tf


class Encoder(tf.Module):
    def __init__(self):
        self.emb = tf.Variable(tf.random.normal([20, 4]))

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)])
    def encode(self, tokens):
        return tf.reduce_mean(tf.nn.embedding_lookup(self.emb, tokens), axis=1)


enc = Encoder()
for batch, length in [(2, 3), (4, 7), (1, 1), (3, 5), (5, 2), (2, 9)]:
    enc.encode(tf.zeros([batch, length], tf.int32))
print(enc.encode.experimental_get_tracing_count())
