# case: b307_try_except_bad_jpeg_in_map
# source: https://github.com/tensorflow/tensorflow/issues/33281
# category: unsupported-syntax|data-pipeline
# expect: error
# raises on TF 2.21: InvalidArgumentError
# line: 16
# also: 17, 18
# fix: A Python try/except only runs at trace time; drop corrupt records with tf.data.experimental.ignore_errors() (or validate bytes with tf ops) instead.

import tensorflow as tf

IMG = 16


def decode_or_blank(jpeg_bytes):
    try:
        image = tf.io.decode_jpeg(jpeg_bytes, channels=3)
    except tf.errors.InvalidArgumentError:
        image = tf.zeros([IMG, IMG, 3], tf.uint8)
    image = tf.image.resize(image, [IMG, IMG])
    return image / 255.0


def build_pipeline():
    good = tf.io.encode_jpeg(tf.zeros([20, 20, 3], tf.uint8))
    corrupt = tf.constant(b"\xff\xd8 definitely not a jpeg")
    ds = tf.data.Dataset.from_tensor_slices([good, corrupt, good])
    return ds.map(decode_or_blank).batch(3)


if __name__ == "__main__":
    for batch in build_pipeline():
        print(batch.shape)
