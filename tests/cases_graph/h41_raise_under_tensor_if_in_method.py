# category: unsupported-syntax
# line: 17
# also: 16
# mechanism: the user's own `raise` in a branch of an `if` on a tensor, in a method the
# tf.function calls: AutoGraph stages the `if` as tf.cond, whose trace runs both branches
import tensorflow as tf


class Clipper:
    def __init__(self, limit):
        self.limit = limit

    def clip(self, grads):
        norm = tf.linalg.global_norm(grads)
        for g in grads:
            if norm > 1e6 * self.limit:
                raise FloatingPointError("gradients exploded")
        return [tf.clip_by_norm(g, self.limit) for g in grads]


@tf.function
def train_step(w, x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum((w * x) ** 2)
    return Clipper(1.0).clip(tape.gradient(loss, [w]))


print(train_step(tf.Variable([1.0, 2.0]), tf.constant([3.0, 4.0])))
