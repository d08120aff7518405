# case: x614_discriminator_frozen_after_its_variables_were_traced
# source: https://github.com/eriklindernoren/Keras-GAN/issues/22
# category: stale-capture|keras-misuse
# expect: warning
# raises on TF 2.21: -
# line: 33
# also: 23
# fix: The variable list was read from trainable_variables when the step was traced; after changing .trainable build a new tf.function (or pass the variable list explicitly per phase) so the frozen layers drop out.

import numpy as np
import keras
import tensorflow as tf

generator = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2)])
discriminator = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
optimizer = keras.optimizers.SGD(0.1)


@tf.function
def combined_step(z):
    with tf.GradientTape() as tape:
        loss = -tf.reduce_mean(discriminator(generator(z)))
    variables = generator.trainable_variables + discriminator.trainable_variables
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return loss


z = tf.random.normal([8, 2])
combined_step(z)  # warm-up step, discriminator still trainable

# generator phase: freeze the discriminator
discriminator.trainable = False
before = discriminator.layers[0].kernel.numpy().copy()
combined_step(z)
after = discriminator.layers[0].kernel.numpy()
print("trainable:", discriminator.trainable, "| frozen kernel changed:", not np.allclose(before, after))
