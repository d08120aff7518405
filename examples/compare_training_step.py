"""Is tf.function worth it? The classic claim, measured: a 10-layer dense training step runs
faster as a graph than eagerly, while a tiny function runs faster eagerly.

compare() runs each function both ways on the same inputs, checks the results agree (outputs
and the variables after one step, restored afterwards) and prints the median time per call.

    python examples/compare_training_step.py [--repeats N]
"""
import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--repeats", type=int, default=30)
args = parser.parse_args()

keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((64,))]
                         + [keras.layers.Dense(64, activation="relu") for _ in range(10)]
                         + [keras.layers.Dense(10)])
optimizer = keras.optimizers.SGD(0.01)
optimizer.build(model.trainable_variables)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def add_one(x):
    return x + 1.0


x = tf.random.stateless_normal((32, 64), seed=(1, 2))
y = tf.random.stateless_uniform((32,), seed=(3, 4), maxval=10, dtype=tf.int32)
before = [v.numpy().copy() for v in model.trainable_variables]

step = tfdebug.compare(train_step, x, y, repeats=args.repeats)
print(step)
print()
tiny = tfdebug.compare(add_one, tf.constant(1.0), repeats=args.repeats)
print(tiny)
print()
unchanged = all((v.numpy() == b).all() for v, b in zip(model.trainable_variables, before))
print(f"10-layer training step: graph is {step.speedup:.2f}x faster than eager")
print(f"tiny add_one:           graph is {tiny.speedup:.2f}x the speed of eager")
print(f"model weights unchanged by compare(): {unchanged}")
