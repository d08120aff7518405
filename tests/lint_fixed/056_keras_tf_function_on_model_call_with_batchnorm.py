import numpy as np
import keras


class CheckBNModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.bn = keras.layers.BatchNormalization()

    def call(self, x):
        return self.bn(x)


model = CheckBNModel()
model.compile(optimizer="adam", loss="mse")
x = np.ones((10, 5), "float32")
model.fit(x, x, batch_size=2, epochs=1, verbose=0)
