import tensorflow as tf


@tf.function
def sample_one_step(x, alpha_i):
    return x + alpha_i * tf.random.normal(tf.shape(x))


x = tf.zeros([4])
for alpha_i in [1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125]:
    x = sample_one_step(x, tf.constant(alpha_i))
print(sample_one_step.experimental_get_tracing_count())
