# Excerpt (trimmed) of keras-team/keras-cv @ 94b0a551d03ee9de3d81663e2c1a680cb113f7f1: benchmarks/vectorized_auto_contrast.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import time
import matplotlib.pyplot as plt
import tensorflow as tf
from tensorflow import keras
from keras_cv.layers import AutoContrast
from keras_cv.layers.preprocessing.base_image_augmentation_layer import (
    BaseImageAugmentationLayer,
)
from keras_cv.utils import preprocessing


if __name__ == "__main__":
    (x_train, _), _ = keras.datasets.cifar10.load_data()
    x_train = x_train.astype(float)

    images = []
    num_images = [1000, 2000, 5000, 10000]
    results = {}

    for aug in [AutoContrast, OldAutoContrast]:
        c = aug.__name__

        layer = aug(value_range=(0, 255))

        runtimes = []
        print(f"Timing {c}")

        for n_images in num_images:
            # warmup
            layer(x_train[:n_images])

            t0 = time.time()
            r1 = layer(x_train[:n_images])
            t1 = time.time()
            runtimes.append(t1 - t0)
            print(f"Runtime for {c}, n_images={n_images}: {t1 - t0}")

        results[c] = runtimes

        c = aug.__name__ + " Graph Mode"

        layer = aug(value_range=(0, 255))

        @tf.function()
        def apply_aug(inputs):
            return layer(inputs)

        runtimes = []
        print(f"Timing {c}")

        for n_images in num_images:
            # warmup
            apply_aug(x_train[:n_images])

            t0 = time.time()
            r1 = apply_aug(x_train[:n_images])
            t1 = time.time()
            runtimes.append(t1 - t0)
            print(f"Runtime for {c}, n_images={n_images}: {t1 - t0}")

        results[c] = runtimes

    plt.figure()
    for key in results:
        plt.plot(num_images, results[key], label=key)
        plt.xlabel("Number images")

    plt.ylabel("Runtime (seconds)")
    plt.legend()
    plt.show()

    # So we can actually see more relevant margins
    del results["OldAutoContrast"]

    plt.figure()
    for key in results:
        plt.plot(num_images, results[key], label=key)
        plt.xlabel("Number images")

    plt.ylabel("Runtime (seconds)")
    plt.legend()
    plt.show()

    # Compare two implementations
    tf.test.main()
