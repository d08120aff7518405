# case: x609_model_rebuilt_per_fold_predict_retraces
# source: https://github.com/tensorflow/tensorflow/issues/43555
# category: retracing
# expect: warning
# raises on TF 2.21: -
# line: 28
# also: 17, 27
# fix: The layer class and the model are re-created on every loop iteration, so each predict() builds and traces a brand-new function; define the layer class once outside the loop and reuse one model (reset its weights per fold) instead of rebuilding it.

import numpy as np
import tensorflow as tf

x = np.random.rand(40, 1).astype("float32")
fold_scores = []
for ii in range(8):
    # Notice class definition *inside the loop*.
    class MyLayer(tf.keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.w = self.add_weight(shape=(1, 1), initializer="ones")

        def call(self, inputs, training=None):
            return tf.matmul(inputs, self.w) * (ii + 1)

    i1 = tf.keras.Input(shape=(1,))
    logits = MyLayer()(i1)
    model = tf.keras.Model(inputs=i1, outputs=logits)
    fold_scores.append(float(model.predict(x[ii * 5:(ii + 1) * 5], batch_size=5, verbose=0).mean()))

print("fold scores:", [round(s, 3) for s in fold_scores])
