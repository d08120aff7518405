# case: b319_reshape_from_none_timesteps
# source: https://github.com/matterport/Mask_RCNN/issues/993
# category: unknown-length
# expect: error
# raises on TF 2.21: TypeError
# line: 15
# also: 17
# fix: Don't compute target shapes from a None static dim; use -1 in Reshape (layers.Reshape((-1,))) or a fixed sequence length in keras.Input.

import keras
from keras import layers


def flatten_sequence(x):
    steps = x.shape[1]
    feats = x.shape[2]
    return layers.Reshape((steps * feats,))(x)


def build_model(n_features=6):
    inp = keras.Input(shape=(None, n_features))
    h = layers.Conv1D(8, 3, padding="same", activation="relu")(inp)
    flat = flatten_sequence(h)
    out = layers.Dense(1)(flat)
    return keras.Model(inp, out)


if __name__ == "__main__":
    build_model().summary()
