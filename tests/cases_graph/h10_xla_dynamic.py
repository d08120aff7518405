# category: string-format
# line: 9
import tensorflow as tf

@tf.function(jit_compile=True)
def f(x):
    return tf.strings.length(x)  # <-

f(tf.constant(["ab", "c"]))
