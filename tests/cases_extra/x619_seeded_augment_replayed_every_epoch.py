# case: x619_seeded_augment_replayed_every_epoch
# source: https://github.com/tensorflow/tensorflow/issues/44195
# category: data-pipeline
# expect: warning
# raises on TF 2.21: none
# line: 19
# also: 12, 18
# fix: With a global seed the traced map function restarts its random stream each time the dataset is re-iterated; use .repeat() over epochs, tf.random.Generator, or stateless ops seeded with the epoch so augmentation differs per epoch.
import numpy as np
import tensorflow as tf

tf.random.set_seed(42)

images = np.random.rand(4, 8, 8, 3).astype("float32")


def augment(image):
    image = tf.image.random_flip_left_right(image)
    return image + tf.random.uniform((), -0.1, 0.1)


train_ds = tf.data.Dataset.from_tensor_slices(images).map(augment).batch(4)

epoch_means = []
for epoch in range(3):
    for batch in train_ds:
        epoch_means.append(round(float(tf.reduce_mean(batch)), 6))
print("mean of augmented batch per epoch:", epoch_means)
