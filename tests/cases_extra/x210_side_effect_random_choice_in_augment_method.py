# case: x210_side_effect_random_choice_in_augment_method
# source: https://github.com/google-research/seed_rl/issues/52
# category: trace-time-side-effect
# expect: warning
# raises on TF 2.21: nothing
# line: 20
# also: 24
# fix: Python's random is drawn once while tracing, so every call uses the same augmentation; use tf.random.uniform / tf.image.random_flip_left_right (or a tf.random.Generator) inside the function.

import random

import tensorflow as tf


class Augmenter:
    def __init__(self, angles):
        self.angles = angles

    def pick_k(self):
        return random.choice(self.angles)

    @tf.function
    def augment(self, image):
        return tf.image.rot90(image, k=self.pick_k())


aug = Augmenter([0, 1, 2, 3])
img = tf.reshape(tf.range(4.0), [2, 2, 1])
outs = {tuple(aug.augment(img).numpy().ravel()) for _ in range(8)}
print(len(outs), "distinct augmentations out of 8")
