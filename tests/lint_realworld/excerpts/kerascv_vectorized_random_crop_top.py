# Excerpt (trimmed) of keras-team/keras-cv @ 94b0a551d03ee9de3d81663e2c1a680cb113f7f1: benchmarks/vectorized_random_crop.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import time
import unittest
import matplotlib.pyplot as plt
import numpy as np
import tensorflow as tf
from tensorflow import keras
from keras_cv import bounding_box
from keras_cv.layers import RandomCrop
from keras_cv.layers.preprocessing.base_image_augmentation_layer import (
    BaseImageAugmentationLayer,
)


for aug in aug_candidates:
    layer = aug(**aug_args)
    @tf.function()
    def apply_aug(inputs):
        return layer(inputs)
