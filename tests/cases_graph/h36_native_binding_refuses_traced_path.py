# category: generic:data-pipeline
# line: 19
# mechanism: a native binding TensorFlow's Python calls (pybind11, wants a Python str)
# refuses the traced string tensor a tf.data function received: the function is traced
import os
import shutil
import tempfile

import tensorflow as tf

ROOT = tempfile.mkdtemp()
for name in ("train", "valid"):
    tf.data.Dataset.range(4).save(os.path.join(ROOT, name))


class Shards:
    def open(self, path):
        # one saved dataset per element
        return tf.data.Dataset.load(path).batch(2)


try:
    names = tf.data.Dataset.from_tensor_slices([os.path.join(ROOT, "train"), os.path.join(ROOT, "valid")])
    for batch in names.flat_map(Shards().open):
        print(batch)
finally:
    shutil.rmtree(ROOT)
