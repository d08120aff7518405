# Excerpt (trimmed) of tf-models-official @ 2.20.0 (PyPI wheel): official/legacy/image_classification/preprocessing.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).
import tensorflow as tf

IMAGE_SIZE = 224


def resize_image(image_bytes: tf.Tensor,
                 height: int = IMAGE_SIZE,
                 width: int = IMAGE_SIZE) -> tf.Tensor:
  print(height, width)
  return tf.compat.v1.image.resize(
      image_bytes,
      tf.convert_to_tensor([height, width]),
      method=tf.image.ResizeMethod.BILINEAR,
      align_corners=False)


def decode_and_center_crop(image_bytes: tf.Tensor,
                           image_size: int = IMAGE_SIZE) -> tf.Tensor:
  image = tf.image.decode_and_crop_jpeg(image_bytes, [0, 0, 1, 1], channels=3)
  image = resize_image(image_bytes=image,
                       height=image_size,
                       width=image_size)
  return image


def load_eval_image(filename: str, image_size: int = IMAGE_SIZE) -> tf.Tensor:
  image_bytes = tf.io.read_file(filename)
  image = decode_and_center_crop(image_bytes, image_size)
  return image


def build_eval_dataset(filenames, labels=None, image_size=IMAGE_SIZE, batch_size=1):
  filenames = tf.constant(filenames)
  labels = tf.constant(labels)
  dataset = tf.data.Dataset.from_tensor_slices((filenames, labels))

  dataset = dataset.map(
      lambda filename, label: (load_eval_image(filename, image_size), label))
  dataset = dataset.batch(batch_size)

  return dataset
