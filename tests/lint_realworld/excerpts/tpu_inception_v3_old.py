# Excerpt (trimmed) of tensorflow/tpu @ 7dc921f846c9e4071f3884b768a7ddf521272a49: models/experimental/inception/inception_v3_old.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function
import os
from absl import app
from absl import flags
from six.moves import range
import tensorflow.compat.v1 as tf
from tensorflow.compat.v1 import estimator as tf_estimator
from tensorflow.contrib import slim
from tensorflow.contrib import tpu as contrib_tpu
from tensorflow.contrib.slim.nets import inception


def input_fn(params):
  """Create a single batch of input data for the model."""
  batch_size = params['batch_size']
  height = FLAGS.height
  width = FLAGS.width

  def preprocess(image, bbox):
    """Preprocesses the image by resizing and rescaling it."""
    del bbox

    # Convert to float32
    image = tf.image.convert_image_dtype(image, dtype=tf.float32)

    # Crop the central region of the image with an area containing 87.5% of
    # the original image.
    # TODO(jhseu): Distortion
    image = tf.image.central_crop(image, central_fraction=0.875)

    # Resize the image to the original height and width.
    image = tf.expand_dims(image, 0)
    image = tf.image.resize_bilinear(image, [height, width],
                                     align_corners=False)
    image = tf.squeeze(image, [0])

    # Rescale to [-1,1] instead of [0, 1)
    image = tf.subtract(image, 0.5)
    image = tf.multiply(image, 2.0)
    return image

  def parser(value):
    """Parse an Imagenet record from value."""
    keys_to_features = {
        'image/encoded':
            tf.FixedLenFeature((), tf.string, default_value=''),
        'image/format':
            tf.FixedLenFeature((), tf.string, default_value='jpeg'),
        'image/class/label':
            tf.FixedLenFeature([], dtype=tf.int64, default_value=-1),
        'image/class/text':
            tf.FixedLenFeature([], dtype=tf.string, default_value=''),
        'image/object/bbox/xmin':
            tf.VarLenFeature(dtype=tf.float32),
        'image/object/bbox/ymin':
            tf.VarLenFeature(dtype=tf.float32),
        'image/object/bbox/xmax':
            tf.VarLenFeature(dtype=tf.float32),
        'image/object/bbox/ymax':
            tf.VarLenFeature(dtype=tf.float32),
        'image/object/class/label':
            tf.VarLenFeature(dtype=tf.int64),
    }

    parsed = tf.parse_single_example(value, keys_to_features)
    encoded_image = tf.reshape(
        parsed['image/encoded'], shape=[], name='encoded_image')
    image_format = parsed['image/format']
    xmin = tf.expand_dims(parsed['image/object/bbox/xmin'].values, 0)
    ymin = tf.expand_dims(parsed['image/object/bbox/ymin'].values, 0)
    xmax = tf.expand_dims(parsed['image/object/bbox/xmax'].values, 0)
    ymax = tf.expand_dims(parsed['image/object/bbox/ymax'].values, 0)

    # Note that we impose an ordering of (y, x) just to make life difficult.
    bbox = tf.concat([ymin, xmin, ymax, xmax], 0)

    # Force the variable number of bounding boxes into the shape
    # [1, num_boxes, coords].
    bbox = tf.expand_dims(bbox, 0)
    bbox = tf.transpose(bbox, [0, 2, 1])

    def decode_png():
      return tf.image.decode_png(encoded_image, 3)

    def decode_jpg():
      return tf.image.decode_jpeg(encoded_image, 3)

    # If image format is PNG, use decode_png, default to jpg.
    pred_fn_pairs = {
        tf.logical_or(
            tf.equal(image_format, 'png'), tf.equal(image_format, 'PNG')):
        decode_png
    }

    image = tf.case(pred_fn_pairs, default=decode_jpg, exclusive=True)
    image.set_shape([None, None, 3])

    image = preprocess(image, bbox)

    label = tf.cast(
        tf.reshape(parsed['image/class/label'], shape=[]),
        dtype=tf.int32,
        name='cast_label')
    label = tf.reshape(label, [1])
    return tf.cast(image, tf.float32), label

  if FLAGS.use_data == 'real':
    data_dir = FLAGS.data_dir
    filenames = [
        os.path.join(data_dir, 'train-%05d-of-01024' % i)
        for i in range(0, 984)
    ]
    dataset = tf.data.TFRecordDataset(filenames)
    dataset = dataset.repeat().map(parser).batch(batch_size)
    images, labels = dataset.make_one_shot_iterator().get_next()
  else:
    images = tf.random_uniform(
        [batch_size, height, width, 3], minval=-1, maxval=1)
    labels = tf.random_uniform(
        [batch_size], minval=0, maxval=999, dtype=tf.int32)

  # Reshape to give inputs statically known shapes.
  return (
      tf.reshape(images, [batch_size, height, width, 3]),
      tf.reshape(labels, [batch_size]),
  )
