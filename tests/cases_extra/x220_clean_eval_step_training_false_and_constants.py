# case: x220_clean_eval_step_training_false_and_constants
# source: https://github.com/tensorflow/tensorflow/issues/36073
# category: keras-training-flag|stale-capture
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: Nothing to fix: the model is called with an explicit training flag in both steps, and the module-level constants it reads never change after tracing.

import tensorflow as tf
import keras

NUM_CLASSES = 3
LABEL_NAMES = ("cat", "dog", "bird")

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"),
                          keras.layers.BatchNormalization(), keras.layers.Dropout(0.3),
                          keras.layers.Dense(NUM_CLASSES)])
opt = keras.optimizers.Adam(0.01)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def eval_step(x):
    probs = tf.nn.softmax(model(x, training=False))
    return tf.argmax(probs, axis=-1, output_type=tf.int32) % len(LABEL_NAMES)


for _ in range(3):
    train_step(tf.random.normal([8, 4]), tf.zeros([8], tf.int32))
print([LABEL_NAMES[i] for i in eval_step(tf.random.normal([4, 4])).numpy()])
