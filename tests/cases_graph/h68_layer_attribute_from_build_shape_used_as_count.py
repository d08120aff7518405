# case: h68_layer_attribute_from_build_shape_used_as_count
# source: https://github.com/XiangLi-Shaun/deformableConvolution_2D/issues/1
# category: unknown-length
# expect: error
# raises on TF 2.21: TypeError
# line: 21
# also: 28
# fix: The batch size is None when the layer is built for a serving signature; read it at run time with tf.shape(inputs)[0] instead of storing input_shape[0].

import tensorflow as tf


class DeformableConv2D(tf.keras.layers.Layer):
    def __init__(self, filters, **kwargs):
        super().__init__(**kwargs)
        self.filters = filters

    def build(self, input_shape):
        self.offset_conv = tf.keras.layers.Conv2D(2, 3, padding="same")
        self.conv = tf.keras.layers.Conv2D(self.filters, 3, padding="same")
        self.num_batch = input_shape[0]
        self.height, self.width = input_shape[1], input_shape[2]

    def call(self, inputs):
        offsets = self.offset_conv(inputs)
        grid = tf.reshape(tf.range(self.height * self.width, dtype=tf.float32),
                          [1, self.height, self.width, 1])
        grid = tf.tile(grid, [self.num_batch, 1, 1, 2])
        return self.conv(inputs + offsets + grid)


class Net(tf.Module):
    def __init__(self):
        self.layer = DeformableConv2D(4)

    @tf.function(input_signature=[tf.TensorSpec([None, 8, 8, 2], tf.float32)])
    def serve(self, images):
        return self.layer(images)


net = Net()
print(net.serve(tf.zeros([3, 8, 8, 2])).shape)
