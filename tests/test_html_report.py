"""The HTML report: one model (the JSON report), two renderers; pages, notebook views, the
``tfdebug run --html`` and ``tfdebug report`` commands. Browser checks: test_html_browser.py."""
import html.parser
import json
import textwrap

import pytest
import tensorflow as tf

import tfdebug
from tfdebug import cli, html_report, render, report

from conftest import line_of, run_tfdebug

HOSTILE = "</title><script>window.pwned = 1</script><img src=x onerror=alert(1)>"


class _Page(html.parser.HTMLParser):
    """What a browser would build from the page: elements with their attributes, and text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def having(self, tag: str, css_class: str) -> list[dict]:
        return [a for t, a in self.elements
                if t == tag and css_class in (a.get("class") or "").split()]


def _marks(page: _Page) -> list[dict]:
    return page.having("rect", "tfd-mark")


def _traced_with_strings():
    """A real trace log: a tf.function that retraces on Python strings full of markup."""
    @tf.function
    def tag(x, label):
        return x + len(label)

    with tfdebug.trace_logger(warn_after=None) as log:
        for label in ("plain", HOSTILE, "other"):
            tag(tf.constant(1), label)
        tag(tf.constant([1, 2]), "plain")
    return log


@pytest.mark.smoke
def test_trace_log_page_one_mark_per_trace_everything_escaped(tmp_path):
    log = _traced_with_strings()
    path = tmp_path / "traces.html"
    returned = log.to_html(str(path))
    text = path.read_text(encoding="utf-8")
    assert returned == text
    page = _Page(text)
    marks = _marks(page)
    assert len(marks) == len(log.events) == 4
    kinds = [m["class"].split()[1] for m in marks]
    assert kinds == ["tfd-k-first", "tfd-k-retrace", "tfd-k-retrace", "tfd-k-retrace"]
    # The markup in the user's strings stays text: no element of theirs, only our one script.
    assert HOSTILE not in text and "<script>window" not in text and "<img" not in text
    assert [t for t, _ in page.elements].count("script") == 1
    assert not [a for t, a in page.elements if t == "img"]
    assert any("<script>window.pwned = 1</script>" in chunk for chunk in page.text)
    # Self-contained: nothing is loaded from anywhere (links to the docs are only links).
    loads = [(t, a) for t, a in page.elements if t in ("script", "img", "iframe", "link")
             and (a.get("src") or a.get("href") or "data:").split(":")[0] not in ("data",)]
    assert loads == []


@pytest.mark.smoke
def test_saved_json_renders_the_same_page_as_the_live_report(tmp_path):
    log = _traced_with_strings()
    live = report.from_logger(log)
    report.write(str(tmp_path / "r.json"), live)
    saved = report.load(str(tmp_path / "r.json"))
    assert isinstance(saved, report.Report) and saved["events"] == json.loads(
        json.dumps(live["events"]))
    assert html_report.render(saved) == html_report.render(live)
    # The timeline's data is in the JSON: every trace, in order, with its time and reasons.
    times = [e["time"] for e in saved["events"]]
    assert times == sorted(times) and times[0] == 0.0
    assert [len(e["reasons"]) > 0 for e in saved["events"]] == [False, True, True, True]


def test_page_of_a_failing_run_and_the_report_command(forked_python, tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent('''
        import tensorflow as tf

        @tf.function
        def step(x):
            return x * 2.0

        for n in range(1, 7):
            step(tf.ones([n]))       # a new shape each time: retraces

        @tf.function(autograph=False)
        def check(x):
            if x > 0:  # "<b>not bold</b>"
                return x
            return -x

        check(tf.constant(1.0))
    '''))
    proc = forked_python(None, "run", "--report", tmp_path / "r.json", "--html",
                         tmp_path / "run.html", script, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr[-3000:]
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["status"] == "error" and data["wall_seconds"] > 0 and data["keras"]
    error = data["diagnostics"][0]
    assert error["severity"] == "error" and error["category"] == "tensor-as-bool"
    assert [n for n, _ in error["context"]] == list(range(error["line"] - 2, error["line"] + 3))
    assert len(data["events"]) == sum(t["count"] for t in data["traces"])

    page_text = (tmp_path / "run.html").read_text(encoding="utf-8")
    page = _Page(page_text)
    assert len(_marks(page)) == len(data["events"])
    assert page.having("line", "tfd-error-line")            # the error on the time axis
    assert page.having("p", "tfd-banner")
    assert 'if x &gt; 0:  # &#34;&lt;b&gt;not bold&lt;/b&gt;&#34;' in page_text   # marked, escaped
    assert page.having("span", "tfd-hit")
    assert page.having("path", "tfd-key-warning")   # step's retracing warning, same axis

    # The same JSON rendered later, elsewhere: the same page.
    proc = run_tfdebug("report", str(tmp_path / "r.json"), "--html", str(tmp_path / "again.html"),
                       cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "again.html").read_text(encoding="utf-8") == page_text


OWN_ERROR = textwrap.dedent('''
    import tensorflow as tf


    class BadBatch(ValueError):
        pass


    @tf.function
    def step(x):
        if x.shape[0] != 3:
            raise BadBatch("want 3 rows, got <b>%d</b> & more" % x.shape[0])
        return x * 2.0


    step(tf.ones([3]))
    step(tf.ones([4]))
''')


def test_a_failed_run_records_its_own_exception_without_a_diagnosis(forked_python, tmp_path):
    """A script ending in its own exception raised inside a tf.function (no recipe applies):
    the report says what failed, where and when, and the page shows it, escaped."""
    script = tmp_path / "train.py"
    script.write_text(OWN_ERROR)
    proc = forked_python(None, "run", "--report", tmp_path / "r.json", "--html",
                         tmp_path / "r.html", script, cwd=tmp_path)
    assert proc.returncode == 1 and "BadBatch: want 3 rows" in proc.stderr, proc.stderr[-3000:]
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["status"] == "error"
    assert not [d for d in data["diagnostics"] if d["severity"] == "error"]
    exc = data["exception"]
    message = "want 3 rows, got <b>4</b> & more"
    # AutoGraph reports the user's exception as StagingError: both are recorded
    assert exc["class"].rpartition(".")[2] == "StagingError" and message in exc["message"]
    assert exc["original"] == {"class": "BadBatch", "message": message}
    raise_line = line_of(str(script), "raise BadBatch")
    assert (exc["file"], exc["line"], exc["function"]) == (str(script), raise_line, "step")
    assert exc["code"] == 'raise BadBatch("want 3 rows, got <b>%d</b> & more" % x.shape[0])'
    assert [n for n, _ in exc["context"]] == list(range(raise_line - 2, raise_line + 3))
    assert exc["diagnosed"] is False
    first_trace = data["events"][0]["time"]
    assert first_trace < exc["time"] <= data["wall_seconds"]

    text = (tmp_path / "r.html").read_text(encoding="utf-8")
    page = _Page(text)
    (banner,) = page.having("p", "tfd-banner")
    assert "want 3 rows, got &lt;b&gt;4&lt;/b&gt; &amp; more" in text and "<b>4</b>" not in text
    (section,) = page.having("section", "tfd-exception")
    assert "BadBatch: want 3 rows, got <b>4</b> & more" in "".join(page.text)
    (error,) = page.having("line", "tfd-error-line")
    assert float(error["data-t"]) == exc["time"]
    assert ("a", {"href": "#" + section["id"]}) in page.elements
    assert "no diagnosis" in "".join(page.text)


def test_a_failed_run_without_tensorflow_records_its_exception(tmp_path):
    script = tmp_path / "plain.py"
    script.write_text("def ratio(a, b):\n    return a / b\n\n\nratio(1, 0)\n")
    proc = run_tfdebug("run", "--report", str(tmp_path / "r.json"), str(script),
                       cwd=str(tmp_path))
    assert proc.returncode == 1 and "ZeroDivisionError" in proc.stderr
    exc = json.loads((tmp_path / "r.json").read_text())["exception"]
    assert (exc["class"], exc["message"]) == ("ZeroDivisionError", "division by zero")
    assert (exc["file"], exc["line"], exc["function"], exc["code"]) == (
        str(script), 2, "ratio", "return a / b")
    assert exc["time"] > 0 and "original" not in exc


def test_a_run_that_ends_well_records_no_exception(tmp_path):
    script = tmp_path / "fine.py"
    script.write_text("print(1)\n")
    proc = run_tfdebug("run", "--report", str(tmp_path / "r.json"), str(script),
                       cwd=str(tmp_path))
    assert proc.returncode == 0
    assert json.loads((tmp_path / "r.json").read_text())["exception"] is None


@pytest.mark.parametrize("content, message", [
    (None, "no such report"),
    ("{not json", "not valid JSON"),
    ('{"hello": 1}', "is not a tfdebug report (no tfdebug, status, diagnostics, traces key)"),
])
def test_report_command_refuses_bad_input_in_one_line(tmp_path, capsys, content, message):
    path = tmp_path / "r.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(report.ReportError, match=message.replace("(", r"\(").replace(")", r"\)")):
        report.load(str(path))
    if content == "{not json":
        proc = run_tfdebug("report", str(path), "--html", str(tmp_path / "out.html"))
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1
        assert message in proc.stderr and not (tmp_path / "out.html").exists()
        with pytest.raises(SystemExit) as exit_:
            cli.main(["report", str(path)])            # --html is required
        assert exit_.value.code == 2 and "--html" in capsys.readouterr().err


def test_a_report_without_the_timeline_keys_still_renders(tmp_path):
    log = _traced_with_strings()
    old = dict(report.from_logger(log))
    for key in ("events", "stale_captures", "keras", "started", "wall_seconds"):
        del old[key]                     # what a report of an earlier tfdebug holds
    page = _Page(html_report.render(old))
    assert not _marks(page)
    assert any("no per-trace times" in chunk for chunk in page.text)
    rows = page.having("table", "tfd-summary")
    assert rows and any("3 retraces" in chunk for chunk in page.text)


def test_the_timeline_starts_at_the_first_trace_start_up_folded():
    """A run whose first trace comes 20 s in (TensorFlow's import on a slow machine): the
    marks fill the axis, the 20 s before them are one band."""
    shifted = dict(report.from_logger(_traced_with_strings()))
    lead = 20.0
    shifted["events"] = [dict(e, time=e["time"] + lead) for e in shifted["events"]]
    first = min(e["time"] for e in shifted["events"])
    last = max(e["time"] + e["duration"] for e in shifted["events"])
    shifted["wall_seconds"] = last + 0.05 * (last - first)  # a tail in scale with the traces
    page = _Page(html_report.render(shifted))
    (svg,) = [a for t, a in page.elements if t == "svg"]
    x0, x1 = float(svg["data-x0"]), float(svg["data-x1"])
    marks = _marks(page)
    xs = [float(m["x"]) for m in marks]
    assert x0 <= min(xs) <= x0 + 0.05 * (x1 - x0)
    assert max(float(m["x"]) + float(m["width"]) for m in marks) > x0 + 0.5 * (x1 - x0)
    (band,) = page.having("rect", "tfd-fold")
    assert float(band["x"]) + float(band["width"]) < x0
    import re
    (folded,) = [float(m.group(1)) for m in (re.match(r"0 – ([\d.]+) s: the run before the "
                                                      r"first trace", c) for c in page.text) if m]
    assert lead * 0.95 < folded <= lead
    # every mark carries its time for the page's zoom
    assert [float(m["data-t"]) for m in marks] == [e["time"] for e in shifted["events"]]
    # a run traced from its start is not folded
    assert not _Page(html_report.render(report.from_logger(_traced_with_strings()))).having(
        "rect", "tfd-fold")


def test_render_and_html_report_import_in_one_direction_only():
    import ast

    def imported(module):
        tree = ast.parse(open(module.__file__, encoding="utf-8").read())
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names |= {f"{node.module or ''}.{a.name}".strip(".") for a in node.names}
                names.add(node.module or "")
            elif isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
        return names

    assert not {"html_report", ".html_report", "tfdebug.html_report"} & imported(render)
    assert "render" in imported(html_report)   # the page uses the text renderer's paths


def _diagnosis():
    @tf.function(autograph=False)
    def safe_div(a, b):
        return a / b if b != 0 else b  # "<i>"

    try:
        safe_div(tf.constant(1.0), tf.constant(2.0))
    except Exception as exc:  # noqa: BLE001
        return tfdebug.diagnose(exc)
    raise AssertionError("safe_div should fail in graph mode")


@pytest.mark.smoke
def test_diagnosis_html_has_what_the_text_layout_has():
    diagnosis = _diagnosis()
    text = render.diagnosis_text(diagnosis)
    fragment = html_report.diagnosis_html(diagnosis)
    page = _Page(fragment)
    shown = "".join(page.text)
    for line in (f"tfdebug {diagnosis.recipe.id} {diagnosis.recipe.category}:",
                 diagnosis.recipe.title, f"in {diagnosis.function}",
                 f"tfdebug explain {diagnosis.recipe.id}"):
        assert line in text and line in shown
    marked = page.having("span", "tfd-hit")
    assert len(marked) == 1
    assert 'return a / b if b != 0 else b  # &#34;&lt;i&gt;&#34;' in fragment
    # the recipe's `inline code` is <code> on the page, its backticks gone
    for prose in (diagnosis.recipe.cause, diagnosis.recipe.fix):
        assert " ".join(prose.replace("`", "").split()) in " ".join(shown.split())
    spans = [p for n, p in enumerate((diagnosis.recipe.cause + diagnosis.recipe.fix).split("`"))
             if n % 2]
    assert spans and all(f"<code>{html_report.inline_code(p)}</code>" in fragment for p in spans)


def test_recipe_prose_inline_code_is_code_and_the_rest_is_escaped():
    code = html_report.inline_code
    assert str(code("use `tf.cond(x < 1)` & <b>not</b> `if`")) == (
        "use <code>tf.cond(x &lt; 1)</code> &amp; &lt;b&gt;not&lt;/b&gt; <code>if</code>")
    assert str(code("a lone ` <i>")) == "a lone ` &lt;i&gt;"   # unbalanced: text as it is
    assert str(code("``")) == ""


def test_notebook_views_of_the_logger_and_the_report():
    log = _traced_with_strings()
    fragment = log._repr_html_()
    page = _Page(fragment)
    assert "script" not in [t for t, _ in page.elements]     # notebooks: no script needed
    assert len(_marks(page)) == 4 and page.having("table", "tfd-summary")
    assert report.from_logger(log)._repr_html_().count('class="tfd-mark') == 4
    # Two views in one notebook never share an anchor.
    ids = [a["id"] for t, a in _Page(fragment + log._repr_html_()).elements if "id" in a]
    assert len(ids) == len(set(ids))


def test_example_notebook_carries_html_outputs(example_notebook):
    """examples/notebook.ipynb run by nbclient: the trace table and a diagnosis as HTML."""
    nb = example_notebook

    def html_of(fragment: str) -> list[str]:
        (cell,) = [c for c in nb.cells if c.cell_type == "code" and fragment in c.source]
        return [o["data"]["text/html"] for o in cell.outputs if "text/html" in o.get("data", {})]

    (traces,) = html_of("%tfdebug traces")
    assert _Page(traces).having("table", "tfd-summary") and "scale" in traces
    (own,) = html_of("with tfdebug.trace_logger() as log")
    assert len(_marks(_Page(own))) == 3
    (diagnosis,) = html_of("def safe_div")
    assert "tfdebug TFD101 tensor-as-bool:" in diagnosis and "tfd-hit" in diagnosis
    # The traceback keeps its plain-text note (terminals, %xmode, NO_COLOR see it as before).
    (cell,) = [c for c in nb.cells if c.cell_type == "code" and "def safe_div" in c.source]
    (error,) = [o for o in cell.outputs if o["output_type"] == "error"]
    assert "tfdebug TFD101 tensor-as-bool" in "\n".join(error["traceback"])
