# case: x203_retrace_dict_of_python_hparams
# source: https://github.com/tensorflow/tensorflow/issues/44033
# category: retracing
# expect: warning
# raises on TF 2.21: nothing
# line: 23
# also: 13,14
# fix: Python floats inside a dict argument are part of the trace key; every new learning rate traces again. Put the changing values in tensors (or tf.Variables) before passing the dict.

import tensorflow as tf


@tf.function
def sgd_update(w, g, hparams):
    return w - hparams["lr"] * g + hparams["decay"] * w


w = tf.ones([2])
g = tf.fill([2], 0.5)
hp = {"lr": 0.1, "decay": 0.0}
for epoch in range(6):
    hp = dict(hp, lr=0.1 * (0.9 ** epoch))
    w = sgd_update(w, g, hp)
print(w.numpy(), sgd_update.experimental_get_tracing_count())
