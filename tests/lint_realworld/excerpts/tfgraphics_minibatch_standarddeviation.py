# Excerpt (trimmed) of tensorflow/graphics @ ad932c3e609ba77c74a61bd83880e730aaab4eeb: tensorflow_graphics/projects/gan/minibatch_standarddeviation.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import tensorflow as tf


class MiniBatchStandardDeviationBase(tf.keras.layers.Layer):
  """Layer that computes the standard deviation across an axis of its inputs."""


  def _calculate_mean_feature_standard_deviation(self, inputs, batch_axis):
    mean = tf.reduce_mean(inputs, axis=batch_axis, keepdims=True)
    mean_sq_diff = tf.reduce_mean(
        tf.square(inputs - mean), axis=batch_axis, keepdims=True)
    mean_stddev = tf.reduce_mean(tf.sqrt(mean_sq_diff), keepdims=True)
    return mean_stddev

  def call(self, inputs):

    input_shape = tf.shape(inputs)
    ndims = len(input_shape)

    if self.batch_axis < 0:
      self.batch_axis = ndims + self.batch_axis

    # Validate axis
    if self.batch_axis >= ndims:
      raise ValueError(
          f'Invalid batch_axis. Expected 0 <= batch_axis < inputs.rank (with '
          f'inputs.rank={ndims}). Received: layer.batch_axis={self.batch_axis}')

    if self.channel_axis < 0:
      self.channel_axis = ndims + self.channel_axis

    # Validate axis
    if self.channel_axis >= ndims:
      raise ValueError(
          f'Invalid channel_axis. Expected 0 <= channel_axis < inputs.rank (with '
          f'inputs.rank={ndims}). Received: layer.channel_axis={self.channel_axis}'
      )

    mean_stddev = self._calculate_mean_feature_standard_deviation(
        inputs, self.batch_axis)
    output_shape = tf.tensor_scatter_nd_update(input_shape,
                                               [[self.channel_axis]], [1])
    outputs = tf.broadcast_to(mean_stddev, output_shape)

    return tf.concat([inputs, outputs], axis=self.channel_axis)
