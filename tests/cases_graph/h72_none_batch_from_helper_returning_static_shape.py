# case: h72_none_batch_from_helper_returning_static_shape
# source: https://github.com/tensorflow/tensorflow/issues/38583
# category: unknown-length
# expect: error
# raises on TF 2.21: ValueError
# line: 30
# also: 26, 29
# fix: Take the batch size from the dynamic shape (tf.shape(x)[0]) in shape_list/rel_to_abs; the static x.shape[0] is None when the step is traced for a tf.data pipeline.

import numpy as np
import tensorflow as tf
import keras


class AttentionAugmentation2D(keras.layers.Layer):
    def __init__(self, num_heads=2, **kwargs):
        super().__init__(**kwargs)
        self.num_heads = num_heads

    def build(self, input_shape):
        width = input_shape[2]
        self.key_relative_w = self.add_weight(shape=(2 * width - 1, input_shape[-1] // self.num_heads),
                                              initializer="random_normal", name="key_rel_w")

    def shape_list(self, x):
        return list(x.shape)

    def rel_to_abs(self, x):
        B, Nh, L, _ = self.shape_list(x)
        col_pad = tf.zeros(tf.stack([B, Nh, L, 1]))
        x = tf.concat([x, col_pad], axis=3)
        flat_x = tf.reshape(x, [B, Nh, L * 2 * L])
        flat_pad = tf.zeros(tf.stack([B, Nh, L - 1]))
        flat_x_padded = tf.concat([flat_x, flat_pad], axis=2)
        final_x = tf.reshape(flat_x_padded, [B, Nh, L + 1, 2 * L - 1])
        return final_x[:, :, :L, L - 1:]

    def call(self, inputs):
        h, w, c = inputs.shape[1], inputs.shape[2], inputs.shape[3]
        q = tf.reshape(inputs, [-1, self.num_heads, h * w, c // self.num_heads])
        q = q[:, :, :w, :]
        rel_logits = tf.einsum("bhld,md->bhlm", q, self.key_relative_w)
        rel = self.rel_to_abs(rel_logits)
        return inputs + tf.reduce_mean(rel)


class AugmentedConvNet(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.attn = AttentionAugmentation2D()
        self.pool = keras.layers.GlobalAveragePooling2D()
        self.head = keras.layers.Dense(1)

    def call(self, x):
        return self.head(self.pool(self.attn(x)))


model = AugmentedConvNet()
model.compile(optimizer="adam", loss="mse")
ds = tf.data.Dataset.from_tensor_slices((np.random.rand(16, 4, 4, 8).astype("float32"),
                                         np.random.rand(16, 1).astype("float32"))).batch(8)
model.fit(ds, epochs=1, verbose=0)
print("trained")
