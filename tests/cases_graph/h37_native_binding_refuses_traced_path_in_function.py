# category: generic:-
# line: 17
# mechanism: the same native refusal in a tf.function: nothing in the vocabulary is proven
# there (a tf.function argument could have been a Python string)
import os
import shutil
import tempfile

import tensorflow as tf

ROOT = tempfile.mkdtemp()
tf.data.Dataset.range(4).save(os.path.join(ROOT, "train"))


@tf.function
def first_element(path):
    return next(iter(tf.data.Dataset.load(path)))


try:
    print(first_element(tf.constant(os.path.join(ROOT, "train"))))
finally:
    shutil.rmtree(ROOT)
