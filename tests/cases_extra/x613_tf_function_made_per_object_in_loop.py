# case: x613_tf_function_made_per_object_in_loop
# source: https://github.com/ipazc/mtcnn/issues/82
# category: retracing
# expect: warning
# raises on TF 2.21: -
# line: 28
# also: 18
# fix: Construct the detector (and its tf.function) once outside the loop and reuse it for every image.

import tensorflow as tf

trace_count = 0


class FaceDetector:
    def __init__(self):
        self.kernel = tf.random.stateless_normal([8, 4], seed=[1, 2])
        self.detect = tf.function(self._detect)

    def _detect(self, image):
        global trace_count
        trace_count += 1
        return tf.nn.relu(image @ self.kernel)


images = [tf.random.normal([2, 8]) for _ in range(8)]
for img in images:
    detector = FaceDetector()
    boxes = detector.detect(img)
# One graph would suffice; a fresh tf.function is built and traced for every image.
print("traces:", trace_count, "for", len(images), "calls")
