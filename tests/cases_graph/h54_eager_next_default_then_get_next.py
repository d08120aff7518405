# category: generic:-
# line: 12
# mechanism: near miss of h51 in eager code: next(iterator, default) returns its default
# there, and the OutOfRangeError comes from the explicit get_next() of the same line, run
# eagerly (no graph op, no tf.function): not the dropped default
import tensorflow as tf

iterator = iter(tf.data.Dataset.range(3))
total = tf.constant(0, tf.int64)
for _ in range(2):
    # the first pass takes 0 and 1; the second takes 2, then get_next() finds the end
    total += next(iterator, tf.constant(0, tf.int64)) + iterator.get_next()
print(total)
