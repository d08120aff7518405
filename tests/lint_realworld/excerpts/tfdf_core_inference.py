# Excerpt (trimmed) of tensorflow/decision-forests @ ad5a8dccc3f9e73d14aef7b53d4e90970859012a: tensorflow_decision_forests/keras/core_inference.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function
import copy
from functools import partial  # pylint: disable=g-importing-member
import os
import tempfile
from typing import Any, Dict, List, NamedTuple, Optional, Union
import uuid
import zipfile
import tensorflow as tf
import tf_keras
from tensorflow_decision_forests.keras import keras_internal
from tensorflow.python.distribute import input_lib
from tensorflow_decision_forests.component.inspector import inspector as inspector_lib
from tensorflow_decision_forests.component.tuner import tuner as tuner_lib
from tensorflow_decision_forests.tensorflow import core_inference as tf_core
from tensorflow_decision_forests.tensorflow import tf_logging
from tensorflow_decision_forests.tensorflow.ops.inference import api as tf_op
from yggdrasil_decision_forests.learner import abstract_learner_pb2
from yggdrasil_decision_forests.learner.multitasker import multitasker_pb2
from yggdrasil_decision_forests.model import abstract_model_pb2  # pylint: disable=unused-import
from yggdrasil_decision_forests.utils.distribute.implementations.grpc import grpc_pb2  # pylint: disable=unused-import


class InferenceCoreModel(tf_keras.models.Model):

  @tf.function(reduce_retracing=True)
  def call_get_leaves(self, inputs):
    """Computes the index of the active leaf in each tree.

    The active leaf is the leave that that receive the example during inference.

    The returned value "leaves[i,j]" is the index of the active leave for the
    i-th example and the j-th tree. Leaves are indexed by depth first
    exploration with the negative child visited before the positive one
    (similarly as "iterate_on_nodes()" iteration). Leaf indices are also
    available with LeafNode.leaf_idx.

    Args:
      inputs: Input tensors. Same signature as the model's "call(inputs)".

    Returns:
      Index of the active leaf for each tree in the model.
    """

    if self._is_multitask:
      raise ValueError(
          "call_get_leaves is not compatible with multi-task models"
      )
    assert len(self._models_get_leaves) == 1

    if self._semantics is None:
      tf_logging.warning(
          (
              "The model was called directly using `call_get_leaves` before "
              "being trained. This method will "
              "only return zeros until trained. The output shape might change "
              "after training %s"
          ),
          inputs,
      )
      return tf.zeros([_batch_size(inputs), 1])

    self._ensure_model_get_leaves_ready()
    normalized_inputs = self._build_normalized_inputs(inputs)
    return self._models_get_leaves[0].apply_get_leaves(normalized_inputs)

  def _ensure_model_get_leaves_ready(self):
    """Ensures that the model that generates the leaves is available."""

    # TODO: Re-use "_models" if it supports the get-leaves inference.

    assert not self._is_multitask

    if self._models_get_leaves is None:
      self._models_get_leaves = [
          tf_op.ModelV2(
              model_path=self.yggdrasil_model_path_tensor()
              .numpy()
              .decode("utf-8"),
              file_prefix=self.yggdrasil_model_prefix(0),
              verbose=False,
              output_types=["LEAVES"],
          )
      ]
