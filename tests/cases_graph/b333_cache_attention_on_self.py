# case: b333_cache_attention_on_self
# source: https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction_must_be_return_values
# category: out-of-scope-tensor
# expect: error
# raises on TF 2.21: TypeError
# line: 25
# also: 31
# fix: Return the attention weights from the tf.function (or store them in a tf.Variable via assign) instead of stashing a graph tensor on self.

import tensorflow as tf


class TinyAttention(tf.Module):
    def __init__(self, dim):
        super().__init__()
        self.wq = tf.Variable(tf.random.normal([dim, dim]))
        self.wk = tf.Variable(tf.random.normal([dim, dim]))
        self.last_weights = None

    @tf.function
    def __call__(self, x):
        q = x @ self.wq
        k = x @ self.wk
        weights = tf.nn.softmax(q @ tf.transpose(k) / 4.0)
        self.last_weights = weights
        return weights @ x


def attention_entropy(layer):
    w = layer.last_weights
    return -tf.reduce_sum(w * tf.math.log(w + 1e-9), axis=-1)


if __name__ == "__main__":
    layer = TinyAttention(4)
    out = layer(tf.random.normal([3, 4]))
    print(attention_entropy(layer))
