"""What the HTML report costs for a run with 1,000 traces: render time and page size.

A real trace log of 1,000 traces (four tf.functions retracing on new shapes and new Python
values, three arguments each) becomes the report (tfdebug.report.from_logger); then, in one
run and interleaved, the JSON is written and the page is rendered and written. Targets: the
page renders in < 1 s and is < 1 MB. The ratio page/JSON is printed for both.

    python benchmarks/bench_html.py [--traces 1000] [--rounds 7]
"""
import argparse
import os
import statistics
import tempfile
import time
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402
from tfdebug import html_report, report  # noqa: E402


def make_functions():
    def encode(tokens, scale, mask):
        return tf.reduce_sum(tf.cast(tokens, tf.float32) * scale) + tf.reduce_sum(mask)

    def decode(tokens, temperature, mask):
        return tf.nn.softmax(tf.cast(tokens, tf.float32) / temperature) * tf.reduce_mean(mask)

    def score(tokens, weight, mask):
        return tf.reduce_max(tf.cast(tokens, tf.float32)) * weight - tf.reduce_min(mask)

    def pool(tokens, width, mask):
        return tf.reduce_mean(tf.cast(tokens, tf.float32)) * width + tf.reduce_sum(mask)

    return [tf.function(f) for f in (encode, decode, score, pool)]


def trace_log(traces: int):
    functions = make_functions()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tfdebug.trace_logger() as log:
            for n in range(traces):
                fn = functions[n % len(functions)]
                length = 1 + (n // len(functions)) % 40
                fn(tf.ones([4, length], tf.int32), 0.5 + n, tf.ones([length]))  # new shape, new float
    return log


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()

    start = time.perf_counter()
    log = trace_log(args.traces)
    made = time.perf_counter() - start
    data = report.from_logger(log, script="bench_html.py")
    assert len(data["events"]) == args.traces, len(data["events"])
    folder = tempfile.mkdtemp(prefix="tfdebug-bench-html-")
    json_path, html_path = os.path.join(folder, "r.json"), os.path.join(folder, "r.html")
    html_report.render(data)  # templates compiled once, as in any process that renders twice

    json_times, html_times, render_times = [], [], []
    for i in range(args.rounds):
        for html_first in ((True, False) if i % 2 else (False, True)):   # ABBA
            if html_first:
                html_times.append(timed(lambda: report.write_html(html_path, data)))
                render_times.append(timed(lambda: html_report.render(data)))
            else:
                json_times.append(timed(lambda: report.write(json_path, data)))
    cold = timed(lambda: (html_report._environment.cache_clear(), html_report.render(data)))
    page_bytes, json_bytes = os.path.getsize(html_path), os.path.getsize(json_path)
    html_s, json_s = statistics.median(html_times), statistics.median(json_times)
    render_s = statistics.median(render_times)

    print(f"{args.traces} traces of 4 tf.functions (traced in {made:.1f} s); "
          f"medians of {args.rounds} rounds, interleaved")
    print(f"  render the page:           {render_s * 1000:8.1f} ms  (target < 1000 ms; "
          f"cold, templates compiled: {cold * 1000:.1f} ms)")
    print(f"  write the page (render+io): {html_s * 1000:7.1f} ms")
    print(f"  write the JSON report:      {json_s * 1000:7.1f} ms   page/JSON time "
          f"{html_s / json_s:.2f}x")
    print(f"  page size: {page_bytes / 1e6:.3f} MB (target < 1 MB); JSON {json_bytes / 1e6:.3f} MB;"
          f" page/JSON size {page_bytes / json_bytes:.2f}x")
    ok = render_s < 1.0 and html_s < 1.0 and page_bytes < 1_000_000
    print("  targets met" if ok else "  TARGET MISSED")


if __name__ == "__main__":
    main()
