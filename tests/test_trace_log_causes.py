"""Which cause the trace logger names: a tf.function made again per call before the shapes
that each new object retraces for; a container the traced code only writes into is no
captured value."""
import warnings

import tensorflow as tf

from conftest import line_of
from tfdebug import trace_logger
from tfdebug.trace_log import RetracingWarning, StaleCaptureWarning

HERE = __file__
COUNTS = [0]


def _fold(batches):
    @tf.function  # <- made per fold
    def step(x):
        return tf.reduce_sum(x)

    for batch in batches:
        step(batch)


def test_a_tf_function_made_per_call_is_the_cause_before_the_shapes_each_new_one_retraces_for():
    with warnings.catch_warnings(record=True) as caught, trace_logger():
        warnings.simplefilter("always")
        for _ in range(4):
            _fold([tf.ones([4]), tf.ones([3])])  # a full batch and a remainder, per fold
    found = [w for w in caught if issubclass(w.category, RetracingWarning)]
    assert found and "TFD204" in str(found[0].message), [str(w.message) for w in found]
    assert found[0].lineno == line_of(HERE, "# <- made per fold")  # where it is made: the fix


class _Detector:
    def __init__(self):
        self.detect = tf.function(self._detect)  # <- made per object

    def _detect(self, x):
        return x * 2


class _Wrapped:
    def __init__(self):
        self.run = tf.function(self._run)

    def _run(self, x):
        return x + 1

    def again(self):
        return tf.function(self._run)  # a second site: which one made it is not proven


def test_a_tf_function_made_by_a_call_is_blamed_at_that_call_when_it_is_the_only_one():
    with warnings.catch_warnings(record=True) as caught, trace_logger():
        warnings.simplefilter("always")
        for _ in range(6):  # past the logger's warn_after
            _Detector().detect(tf.ones([2]))
            _Wrapped().run(tf.ones([2]))
    found = {str(w.message).split(" was traced")[0].split()[-1]: w for w in caught
             if issubclass(w.category, RetracingWarning)}
    assert found["_Detector._detect"].lineno == line_of(HERE, "# <- made per object")
    assert found["_Wrapped._run"].lineno == _Wrapped._run.__code__.co_firstlineno  # its def


@tf.function
def _counted(x):
    COUNTS[0] += 1
    return x * 2


def test_a_container_the_traced_code_only_writes_into_is_not_a_stale_capture():
    with trace_logger() as log:
        _counted(tf.constant(1.0))
        COUNTS[0] = 10
        _counted(tf.constant(2.0))
    assert log.stale_captures == []


def _gan_parts():
    import keras
    generator = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2)])
    critic = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    optimizer = keras.optimizers.SGD(0.1)

    @tf.function
    def step(z):
        with tf.GradientTape() as tape:
            loss = -tf.reduce_mean(critic(generator(z)))
        variables = generator.trainable_variables + critic.trainable_variables
        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss
    return critic, step


def _stale_flags(run):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with trace_logger():
            run()
    return [w for w in caught if issubclass(w.category, StaleCaptureWarning)]


def test_a_trainable_flag_set_after_a_tf_function_took_the_variables_is_blamed_where_set():
    critic, step = _gan_parts()
    z = tf.ones([4, 2])

    def run():
        step(z)
        critic.trainable = False  # <- frozen after the trace
        step(z)
    found = _stale_flags(run)
    assert len(found) == 1 and "TFD214" in str(found[0].message), [str(w.message) for w in found]
    assert found[0].lineno == line_of(HERE, "# <- frozen after the trace")
    assert "set to False" in str(found[0].message) and "traced with True" in str(found[0].message)


def test_a_flag_set_with_no_call_after_it_or_set_back_before_the_call_is_no_stale_capture():
    critic, step = _gan_parts()
    z = tf.ones([4, 2])

    def never_called_after():
        step(z)
        step(z)
        critic.trainable = False  # the graph never runs with the old flags after this

    def set_back():
        step(z)
        critic.trainable = False
        critic.trainable = True
        step(z)
    assert _stale_flags(never_called_after) == []
    assert _stale_flags(set_back) == []
