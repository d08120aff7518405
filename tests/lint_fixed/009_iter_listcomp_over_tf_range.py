import tensorflow as tf


@tf.function
def band2bin(bands, widths):
    tensor_list = [tf.tile(bands[:, b:b + 1, :], [1, widths[b], 1]) for b in range(bands.shape[1])]
    return tf.concat(tensor_list, axis=1)


print(band2bin(tf.ones([2, 3, 4]), [1, 2, 3]).shape)
