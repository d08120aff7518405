# Excerpt (trimmed) of tensorflow/recommenders @ cf1dafa988f223ed5f30b68cb9aed518484b3a1d: tensorflow_recommenders/tasks/retrieval.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import tensorflow as tf


class Retrieval(tf.keras.layers.Layer, base.Task):

  def call(
      self,
      query_embeddings: tf.Tensor,
      candidate_embeddings: tf.Tensor,
      sample_weight: Optional[tf.Tensor] = None,
      candidate_sampling_probability: Optional[tf.Tensor] = None,
      candidate_ids: Optional[tf.Tensor] = None,
      compute_metrics: bool = True,
      compute_batch_metrics: bool = True,
      score_mask: Optional[tf.Tensor] = None,
  ) -> tf.Tensor:
    """Computes the task loss and metrics.

    The main argument are pairs of query and candidate embeddings: the first row
    of query_embeddings denotes a query for which the candidate from the first
    row of candidate embeddings was selected by the user.

    The task will try to maximize the affinity of these query, candidate pairs
    while minimizing the affinity between the query and candidates belonging
    to other queries in the batch.

    Args:
      query_embeddings: [num_queries, embedding_dim] tensor of query
        representations, or [num_queries, num_heads, embedding_dim]. If latter,
        we do "maxsim" scoring over those multiple query heads. This applies to
        the loss computation and batch metrics. Factorized metrics won't be
        computed in this case.
      candidate_embeddings: [num_candidates, embedding_dim] tensor of candidate
        representations. Normally, `num_candidates` is the same as
        `num_queries`: there is a positive candidate corresponding for every
        query. However, it is also possible for `num_candidates` to be larger
        than `num_queries`. In this case, the extra candidates will be used an
        extra negatives for all queries.
      sample_weight: [num_queries] tensor of sample weights.
      candidate_sampling_probability: Optional tensor of candidate sampling
        probabilities. When given will be be used to correct the logits to
        reflect the sampling probability of negative candidates.
      candidate_ids: Optional tensor containing candidate ids. When given,
        factorized top-K evaluation will be id-based rather than score-based.
      compute_metrics: Whether to compute metrics. Set this to False during
        training for faster training.
      compute_batch_metrics: Whether to compute batch level metrics. In-batch
        loss_metrics will still be computed.
      score_mask: [num_queries, num_candidates] boolean tensor indicating for
        each query, which candidates should be considered for loss and
        metrics computation (false means the candidate is not considered).

    Returns:
      loss: Tensor of loss values.
    """

    if len(tf.shape(query_embeddings)) == 3:
      scores = tf.einsum(
          "qne,ce->qnc", query_embeddings, candidate_embeddings
      )
      scores = tf.math.reduce_max(scores, axis=1)
    else:
      scores = tf.linalg.matmul(
          query_embeddings, candidate_embeddings, transpose_b=True
      )

    num_queries = tf.shape(scores)[0]
    num_candidates = tf.shape(scores)[1]

    labels = tf.eye(num_queries, num_candidates)

    if self._temperature is not None:
      scores = scores / self._temperature

    if candidate_sampling_probability is not None:
      scores = layers.loss.SamplingProbablityCorrection()(
          scores, candidate_sampling_probability)

    if self._remove_accidental_hits:
      if candidate_ids is None:
        raise ValueError(
            "When accidental hit removal is enabled, candidate ids "
            "must be supplied."
        )
      scores = layers.loss.RemoveAccidentalHits()(labels, scores, candidate_ids)

    if score_mask is not None:
      scores = tf.where(score_mask, scores, MIN_FLOAT)

    if self._num_hard_negatives is not None:
      scores, labels = layers.loss.HardNegativeMining(self._num_hard_negatives)(
          scores,
          labels)

    loss = self._loss(y_true=labels, y_pred=scores, sample_weight=sample_weight)

    update_ops = []
    for metric in self._loss_metrics:
      update_ops.append(metric.update_state(loss))

    if compute_metrics and len(tf.shape(query_embeddings)) == 2:
      for metric in self._factorized_metrics:
        update_ops.append(
            metric.update_state(
                query_embeddings,
                # Slice to the size of query embeddings
                # if `candidate_embeddings` contains extra negatives.
                candidate_embeddings[:tf.shape(query_embeddings)[0]],
                true_candidate_ids=candidate_ids,
                sample_weight=sample_weight)
        )

    if compute_batch_metrics:
      for metric in self._batch_metrics:
        update_ops.append(
            metric.update_state(labels, scores, sample_weight=sample_weight)
        )

    with tf.control_dependencies(update_ops):
      return tf.identity(loss)
