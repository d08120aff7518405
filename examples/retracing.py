"""A retracing storm: a small text classifier whose training loop traces on almost every call.

It runs, and it learns, but each step builds a new graph:

* sentences come in batches of different lengths, so ``train_step`` sees a new shape;
* the learning rate decays as a Python float, so every new value is a new trace;
* ``evaluate()`` wraps its metric in ``tf.function`` each time it is called;
* ``LABEL_SMOOTHING`` is a global that the loop changes, but the graph keeps the old value.

Diagnose it with::

    tfdebug run examples/retracing.py

which warns at the calls that cause the retraces, prints a table of every function that
retraced (with the reasons and a ready-to-paste ``input_signature``) and reports the stale
global. ``--fixed`` runs the same loop with those fixes: one trace per function.
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

FIXED = "--fixed" in sys.argv
VOCAB, CLASSES = 50, 3
LABEL_SMOOTHING = tf.Variable(0.0) if FIXED else 0.0

rng = np.random.default_rng(0)
embedding = tf.Variable(rng.normal(size=(VOCAB, 8)).astype("float32"))
weights = tf.Variable(rng.normal(size=(8, CLASSES)).astype("float32"))


def batches(steps):
    """Batches of 4 sentences, each batch padded only to its own longest sentence."""
    for _ in range(steps):
        length = int(rng.integers(3, 9))
        tokens = rng.integers(1, VOCAB, size=(4, length)).astype("int32")
        labels = rng.integers(0, CLASSES, size=(4,)).astype("int32")
        yield tf.constant(tokens), tf.constant(labels)


def loss_fn(tokens, labels):
    logits = tf.reduce_mean(tf.gather(embedding, tokens), axis=1) @ weights
    targets = tf.one_hot(labels, CLASSES) * (1 - LABEL_SMOOTHING) + LABEL_SMOOTHING / CLASSES
    return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(targets, logits))


def train_step(tokens, labels, lr):
    with tf.GradientTape() as tape:
        loss = loss_fn(tokens, labels)
    for var, grad in zip((embedding, weights), tape.gradient(loss, [embedding, weights])):
        var.assign_sub(lr * tf.convert_to_tensor(grad))
    return loss


def accuracy(tokens, labels):
    logits = tf.reduce_mean(tf.gather(embedding, tokens), axis=1) @ weights
    return tf.reduce_mean(tf.cast(tf.argmax(logits, 1, output_type=tf.int32) == labels, tf.float32))


if FIXED:
    SPEC = [tf.TensorSpec(shape=[4, None], dtype=tf.int32), tf.TensorSpec(shape=[4], dtype=tf.int32)]
    train_step = tf.function(train_step, input_signature=SPEC + [tf.TensorSpec([], tf.float32)])
    accuracy_fn = tf.function(accuracy, input_signature=SPEC)
else:
    train_step = tf.function(train_step)


def evaluate(tokens, labels):
    if FIXED:
        return accuracy_fn(tokens, labels)
    return tf.function(accuracy)(tokens, labels)       # a new tf.function on every call


lr = 0.5
for epoch in range(3):
    for tokens, labels in batches(4):
        loss = train_step(tokens, labels, lr)
    lr *= 0.7                                          # a new Python float every epoch
    if FIXED:
        LABEL_SMOOTHING.assign(0.1 * (epoch + 1))
    else:
        LABEL_SMOOTHING = 0.1 * (epoch + 1)            # the traced graphs keep 0.0
    acc = evaluate(*next(batches(1)))
    print(f"epoch {epoch}: loss {float(loss):.3f}  accuracy {float(acc):.2f}")
print("traces of train_step:", train_step.experimental_get_tracing_count())
