# Excerpt (trimmed) of tensorflow/neural-structured-learning @ c60d48b403009d94178826d15a12cc050a0b2dc5: research/carls/models/caml/sparse_features.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import collections
import threading
import typing
from research.carls import dynamic_embedding_config_pb2 as de_config_pb2
from research.carls import dynamic_embedding_ops as de_ops
from six.moves import range
import tensorflow as tf


# Map from feature name to _BagOfSparseFeaturesEmbeddingParams.
_feature_embedding_collections = {}
_lock = threading.Lock()

class SparseFeatureEmbedding(tf.keras.layers.Layer):

  def call(self, feature_keys):
    (embedding_concat, self.vc_concat, self.sigma_concat,
     self.input_embedding_map) = self.lookup(feature_keys)
    return embedding_concat

  def lookup(self, feature_keys):
    """Returns the embeddings of given feature keys.

    Args:
      feature_keys: A string `Tensor` of shape [batch_size, None] or a map from
        feature name to a string `Tensor` of shape [batch_size, None].

    Returns:
      A tuple of
      - A float `Tensor` of shape [batch_size, concat_embedding_dim] where
        concat_embedding_dim is the concated embedding of all feature columns.
      - A float `Tensor` of shape [batch_size, concat_vc_embedding_dim].
      - A float `Tensor` of shape [batch_size, concat_sigma_embedding_dim].
      - A map from feature name to a float `Tensor` of shape
        [batch_size, embedding_dim] (2D) or
        [batch_size, max_sequence_length, embedding_dim] (3D) representing the
        input embedding before applying embedding decomposition formula.
    Raises:
      RuntimeError: if feature_map is empty.
    """
    if not self._feature_map:
      raise RuntimeError("Feature map is empty.")
    if not isinstance(feature_keys, dict):
      if len(self._feature_map) != 1:
        raise TypeError(
            "Input a single key tensor but the feature size is not one: %d." %
            len(self._feature_map))
      feature_keys = {list(self._feature_map.keys())[0]: feature_keys}
    embedding_list = []
    vc_list = []
    sigma_list = []
    input_embedding_map = {}
    for name, keys in feature_keys.items():
      if name not in self._feature_map:
        raise RuntimeError("input feature %s is not in feature map." % name)
      embed_dim, sigma_dim = self._feature_map[name]
      input_variables = None
      if name in self._variable_map.keys():
        input_variables = self._variable_map[name]
      embed, vc, sigma, input_embed, variables = embed_single_feature(
          keys,
          self._de_config,
          embed_dim,
          sigma_dim,
          "%s_%s" % (self._op_name, name),
          self._em_steps,
          input_variables,
          service_address=self._service_address,
          timeout_ms=self._timeout_ms)
      if not input_variables:
        self._variable_map[name] = variables
      embedding_list.append(embed)
      input_embedding_map[name] = input_embed
      if vc is not None:
        vc_list.append(vc)
      if sigma is not None:
        sigma_list.append(sigma)

    vc_concat = tf.concat(vc_list, -1) if vc_list else None
    sigma_concat = tf.concat(sigma_list, -1) if sigma_list else None
    embedding_concat = tf.concat(embedding_list, -1)
    return (embedding_concat, vc_concat, sigma_concat, input_embedding_map)



def embed_single_feature(keys: tf.Tensor,
                         de_config: de_config_pb2.DynamicEmbeddingConfig,
                         embedding_dim: int,
                         sigma_dim: int,
                         feature_name: typing.Text,
                         em_steps: int = 0,
                         variables: BagOfSparseFeatureVariables = None,
                         service_address: typing.Text = "",
                         timeout_ms: int = -1):
  """Embeds a single feature based on the embedding decomposition formula.

  Args:
    keys: A string `Tensor` of shape [batch_size] for single key batch or
      [batch_size, None] for multiple keys batch. Only non-empty strings are
      considered as valid key.
    de_config: Proto DynamicEmbeddingConfig that configs the embedding.
    embedding_dim: a positive int denoting the dimension for embedding.
    sigma_dim: a non-negative int denoting the dimension for sigma
      function. If sigma_dim = 0, no weighted composition is applied to
      the input, simply an average of the embeddings for each feature is
      returned.
    feature_name: Feature name for the embedding.
    em_steps: number of training steps in each iteration of optimizing sigma and
      embedding alternatively, which is done by not updating the gradients of
      the other. If em_steps <= 0, both sigma and embeddings are optimized
      simultaneously. A proper em_steps can help significantly reduce the
      generalization error.
    variables: a `BagOfSparseFeatureVariables` denoting the variables used for
      computing the CA-BSFE embedding. If None, creates new variables.
    service_address: The address of a knowledge bank service. If empty, the
      value passed from --kbs_address flag will be used instead.
    timeout_ms: Timeout millseconds for the connection. If negative, never
      timout.

  Returns:
    A tuple of
    - embedding: A `Tensor` of shape [batch_size, embedding_dim]
      representing composited embedding vector.
    - vc: A `Tensor` of shape [embedding_dim] representing the
      context vector.
    - sigma: A `Tensor` of shape [batch_size] representing the context free
      probability.
    - input_embedding: A `Tensor` of shape [batch_size, embedding_dim]
      (2D) or [batch_size, max_sequence_length, embedding_dim] (3D)
      representing the input embedding.
    - variables: A list of tf.Variable defined in this function.
  Raises:
    TypeError: If de_config is not an instance of DynamicEmbeddingConfig.
    ValueError: If feature_name is not specified, or sigma_dim < 0 or
      embedding_dim <= 0.
  """
  if not isinstance(de_config, de_config_pb2.DynamicEmbeddingConfig):
    raise TypeError("de_config must be an instance of DynamicEmbeddingConfig.")
  if sigma_dim < 0:
    raise ValueError("Invalid sigma_dim: %d" % sigma_dim)
  if embedding_dim <= 0:
    raise ValueError("Invalid embedding_dim: %d" % embedding_dim)
  if not feature_name:
    raise ValueError("Must specify a valid feature_name.")
  # A single key batch is a [batch_size] input.
  if not isinstance(keys, tf.Tensor):
    keys = tf.convert_to_tensor(keys)
  is_single_key_batch = (len(keys.get_shape().as_list()) == 1)

  # Add to global collection of feature embeddings for export.
  bsfe_params = _BagOfSparseFeaturesEmbeddingParams(embedding_dim,
                                                    sigma_dim)
  with _lock:
    _feature_embedding_collections[feature_name] = bsfe_params
