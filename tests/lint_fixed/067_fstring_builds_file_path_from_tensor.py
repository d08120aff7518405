import os
import tempfile
import tensorflow as tf

data_dir = tempfile.mkdtemp()
with open(os.path.join(data_dir, "a.txt"), "w") as fh:
    fh.write("hello")


def load(name):
    path = tf.strings.join([data_dir, "/", name, ".txt"])
    return tf.io.read_file(path)


ds = tf.data.Dataset.from_tensor_slices(["a"]).map(load)
for item in ds:
    print(item)
