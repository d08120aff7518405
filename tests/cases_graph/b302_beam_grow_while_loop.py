# case: b302_beam_grow_while_loop
# source: https://github.com/tensorflow/tensorflow/issues/45538
# category: loop-var-shape
# expect: error
# raises on TF 2.21: ValueError
# line: 24
# also: 27
# fix: Pass shape_invariants=(tf.TensorShape([]), tf.TensorShape([None])) to tf.while_loop (or preallocate a fixed-size buffer / use a TensorArray).

import tensorflow as tf

MAX_STEPS = 5


def decode_greedy(logits_fn, start_token):
    step = tf.constant(0)
    tokens = tf.reshape(start_token, [1])

    def cond(step, tokens):
        return step < MAX_STEPS

    def body(step, tokens):
        next_tok = logits_fn(tokens[-1])
        tokens = tf.concat([tokens, [next_tok]], axis=0)
        return step + 1, tokens

    _, tokens = tf.while_loop(cond, body, (step, tokens))
    return tokens


@tf.function
def run_decoder(start):
    return decode_greedy(lambda t: (t * 7 + 3) % 11, start)


if __name__ == "__main__":
    print(run_decoder(tf.constant(1)))
