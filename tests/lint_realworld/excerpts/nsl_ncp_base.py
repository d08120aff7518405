# Excerpt (trimmed) of tensorflow/neural-structured-learning @ c60d48b403009d94178826d15a12cc050a0b2dc5: research/neural_clustering/models/ncp_base.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import numpy as np
import tensorflow as tf


class NCPBase(tf.keras.Model):

  def call(self, next_preprocessed_input, states):
    """Computes the logits of adding the new point to all the possible clusters.

    Arguments:
      next_preprocessed_input: A list containing the preprocessed tensors
        of the next data point to be clustered: `[h_x_next, u_x_next]`, where
        `h_x_next = h_x[:, next_point]`, and `u_x_next = u_x[:, next_point]`.
          Here, `[h_x, u_x]` is the output of `self.preprocess_inputs(inputs)`,
          and `next_point` is the index of the next point to be clustered.
      states: A list containing the global states:
      - u_aggr: A `Tensor` of shape `[batch_size, u_dim]`. The global
        representation of currently unassigned points (`U`) by aggregating
        `u_x`.
      - h_aggr: A `Tensor` of shape `[batch_size, max(num_clusters), h_dim]`,
        Each slice along the second dimension is the representation of the k-th
        cluster (`H_k`) by aggregating `h_x` assigned to that cluster.
      - g_h: A `Tensor` of shape `[batch_size, max(num_clusters), g_dim]`,
        representing the output of `self.cluster_layer(h_aggr)`.
      - g_aggr: A `Tensor` of shape `[batch_size, g_dim]`. The global
        representation of already clustered data (`G`) by aggregating `g_h`.
      - g_candidates: `None` as part of the input states, but will be updated to
        a `Tensor` of shape `[batch_size, max(num_clusters), g_dim]` in the
        output states, holding the hypothesized global representations after
        adding `x_i` to each of the possible clusters.
      - num_clusters: A `List[int]` (`length=batch_size`) storing the number of
        possible clusters to join for each batch example at the current
        iteration. This includes the empty cluster. If the new point joins the
        empty cluster, it will effectively create a new cluster.

    Returns:
      logits: A `Tensor` of shape `[batch_size, max_num_clusters]`. The log
        likelihood of adding the next point to each of the possible clusters.
        For any row `k` in the batch where `num_clusters[k] < max_num_clusters`,
        `logits` will be padded with `-inf` for non-existing clusters as
        `logits[k, n_cluster[k]:] = -np.inf`.

      states: A list containing the updated global states.
    """

    h_x_next, u_x_next = next_preprocessed_input
    u_aggr, h_aggr, g_h, g_aggr, g_candidates, num_clusters = states

    # Take the current point out of the embedding of unassigned points (U).
    u_aggr -= u_x_next

    # Try adding h_x_next to every possible cluster.
    h_candidates = h_aggr + h_x_next[:, tf.newaxis]
    g_candidates = g_aggr[:,
                          tf.newaxis] + self.cluster_layer(h_candidates) - g_h

    u_aggr_expanded = tf.broadcast_to(
        u_aggr[:, tf.newaxis],
        [u_aggr.shape[0], g_candidates.shape[1], u_aggr.shape[-1]])

    logits = self.logits_layer(
        tf.concat([g_candidates, u_aggr_expanded], axis=-1))
    logits = tf.nn.log_softmax(tf.squeeze(logits, axis=-1), axis=-1)

    # Pads logits of non-existing clusters with -inf.
    logits_mask = np.zeros_like(logits)
    for i, k in enumerate(num_clusters):
      logits_mask[i, k:] = -np.inf
    logits_mask = tf.convert_to_tensor(logits_mask)
    logits += logits_mask

    states = [u_aggr, h_aggr, g_h, g_aggr, g_candidates, num_clusters]
    return logits, states
