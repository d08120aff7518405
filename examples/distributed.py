"""Distributed training under tfdebug: Keras ``fit``/``evaluate``/``predict`` with a custom
``train_step``, a custom loop with ``strategy.run``, and a replica-context mistake.

    python examples/distributed.py                     # MirroredStrategy, 2 logical CPUs
    TF_CONFIG='{"cluster": {"worker": ["localhost:12345", "localhost:12346"]},
                "task": {"type": "worker", "index": 0}}' \
        python examples/distributed.py --multi-worker  # one worker of a cluster
    python examples/distributed.py --report out.json   # what tfdebug saw, as JSON

Each part prints what tfdebug showed: the step ran eagerly under ``tfdebug.eager()``, the
trace logger attributes the traces to the user's step function, and the error raised on
the worker carries tfdebug's diagnosis.
"""
import argparse
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402

GLOBAL_BATCH = 8


def make_strategy(multi_worker: bool):
    if multi_worker:
        # The cluster comes from TF_CONFIG; it must be created before any other TF op.
        return tf.distribute.MultiWorkerMirroredStrategy()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def make_dataset():
    x = tf.reshape(tf.range(32, dtype=tf.float32), (16, 2)) / 32.0
    y = tf.reduce_sum(x, axis=1, keepdims=True)
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    return tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH).with_options(options)


def keras_part(strategy, dataset) -> dict:
    """fit/evaluate/predict with a custom train_step, eagerly (``tfdebug.eager()``) and as
    a graph."""
    import keras

    eager_seen = []

    class Regressor(keras.Model):
        def train_step(self, data):
            eager_seen.append(tf.executing_eagerly())
            return super().train_step(data)

    with strategy.scope():
        inputs = keras.Input((2,))
        model = Regressor(inputs, keras.layers.Dense(1)(inputs))
        model.compile(optimizer="sgd", loss="mse")
    with tfdebug.eager():
        model.fit(dataset, epochs=1, verbose=0)
    eager_steps = list(eager_seen)
    eager_seen.clear()
    model.fit(dataset, epochs=1, verbose=0)
    loss = model.evaluate(dataset, verbose=0)
    predictions = model.predict(dataset, verbose=0)
    return {"fit_eager": eager_steps, "fit_graph": eager_seen,
            "evaluate_loss_finite": bool(tf.math.is_finite(loss)),
            "predict_shape": list(predictions.shape)}


def loop_part(strategy, dataset) -> dict:
    """A custom loop: the step runs eagerly under ``tfdebug.eager()``; the trace logger
    attributes the traces to train_step, on every worker."""
    eager_seen = []
    with strategy.scope():
        weights = tf.Variable(tf.zeros((2, 1)))

    def replica_step(x, y):
        eager_seen.append(tf.executing_eagerly())
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.matmul(x, weights) - y) ** 2)
        weights.assign_sub(0.1 * tape.gradient(loss, weights))
        return loss

    @tf.function
    def train_step(x, y):
        per_replica = strategy.run(replica_step, args=(x, y))
        return strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None)

    batches = strategy.experimental_distribute_dataset(dataset)
    with tfdebug.eager():
        for x, y in batches:
            train_step(x, y)
    loop_eager = list(eager_seen)
    with tfdebug.trace_logger() as log:
        for _ in range(2):
            for x, y in batches:
                train_step(x, y)
    print(log.summary())
    return {"loop_eager": loop_eager, "train_step_traces": log.count(train_step),
            "traced_names": sorted({event.function for event in log.events if event.user_code})}


def error_part(strategy, dataset) -> dict:
    """A replica-context mistake: strategy.reduce inside the replica function."""

    @tf.function
    def broken_step(x, y):
        def replica_fn(x, y):
            loss = tf.reduce_mean(x) - tf.reduce_mean(y)
            return strategy.reduce(tf.distribute.ReduceOp.SUM, loss, axis=None)
        return strategy.run(replica_fn, args=(x, y))

    x, y = next(iter(strategy.experimental_distribute_dataset(dataset)))
    try:
        with tfdebug.explain():
            broken_step(x, y)
    except RuntimeError as exc:
        notes = getattr(exc, "__notes__", [])
        print("".join(notes), file=sys.stderr)
        return {"error": type(exc).__name__, "notes": notes}
    return {"error": None, "notes": []}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--multi-worker", action="store_true",
                        help="MultiWorkerMirroredStrategy from TF_CONFIG")
    parser.add_argument("--report", help="write what tfdebug saw to this JSON file")
    args = parser.parse_args(argv)

    strategy = make_strategy(args.multi_worker)
    dataset = make_dataset()
    task = json.loads(os.environ.get("TF_CONFIG", "{}")).get("task", {})
    result = {"strategy": type(strategy).__name__, "worker": task.get("index", 0),
              "replicas": strategy.num_replicas_in_sync}
    if not args.multi_worker:
        # Keras 3.15 cannot fit under MultiWorkerMirroredStrategy on TF 2.21 at all (its
        # symbolic build reduces a PerReplica batch eagerly and fails), with or without
        # tfdebug; multi-worker runs use the custom loop.
        result.update(keras_part(strategy, dataset))
    result.update(loop_part(strategy, dataset))
    result.update(error_part(strategy, dataset))
    print(json.dumps(result))
    if args.report:
        with open(args.report, "w", encoding="utf-8") as fh:
            json.dump(result, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
