# case: x618_keras_predict_inside_traced_train_step
# source: https://github.com/tensorflow/tensorflow/issues/33997
# category: keras-misuse
# expect: error
# raises on TF 2.21: RuntimeError
# line: 31
# also: 
# fix: Model.predict is a high-level eager loop that cannot run inside a traced train_step; call the teacher directly, teacher_probs = self.teacher(x, training=False).
import numpy as np
import tensorflow as tf
import keras


def make_net(width):
    return keras.Sequential([
        keras.Input(shape=(16,)),
        keras.layers.Dense(width, activation="relu"),
        keras.layers.Dense(4, activation="softmax"),
    ])


class Distiller(keras.Model):
    def __init__(self, student, teacher):
        super().__init__()
        self.student = student
        self.teacher = teacher
        self.kl = keras.losses.KLDivergence()

    def train_step(self, data):
        x, _ = data
        teacher_probs = self.teacher.predict(x, verbose=0)
        with tf.GradientTape() as tape:
            student_probs = self.student(x, training=True)
            loss = self.kl(teacher_probs, student_probs)
        grads = tape.gradient(loss, self.student.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.student.trainable_variables))
        return {"kl": loss}

    def call(self, x):
        return self.student(x)


teacher = make_net(64)
distiller = Distiller(make_net(8), teacher)
distiller.compile(optimizer="adam")
x = np.random.rand(32, 16).astype("float32")
distiller.fit(x, np.zeros((32,)), epochs=1, batch_size=8, verbose=0)
print("distilled")
