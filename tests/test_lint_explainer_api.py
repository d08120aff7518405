"""lint.findings_at: "which finding sits at this line of this function?" for the explainer."""
import linecache

from tfdebug import lint

SOURCE = ("import tensorflow as tf\n"
          "\n"
          "@tf.function\n"
          "def step(x):\n"
          "    print(x)\n"
          "    return x.numpy()\n"
          "\n"
          "def other(x):\n"
          "    return x\n")


def _code_of(source, filename, name):
    module = compile(source, filename, "exec")
    return next(c for c in module.co_consts if getattr(c, "co_name", None) == name)


def test_findings_at_a_line_of_a_file(tmp_path):
    path = str(tmp_path / "train.py")
    with open(path, "w") as fh:
        fh.write(SOURCE)
    assert [f.code for f in lint.findings_at(path, 6)] == ["TFD140"]
    assert [f.code for f in lint.findings_at(path, 5)] == ["TFD300"]
    assert lint.findings_at(path, 4) == []
    code = _code_of(SOURCE, path, "step")
    assert [f.code for f in lint.findings_at(path, 6, code)] == ["TFD140"]
    assert [f.code for f in lint.findings_at(path, 6, "step")] == ["TFD140"]
    assert lint.findings_at(path, 6, "other") == []
    assert lint.findings_at(path, 6, _code_of(SOURCE, path, "other")) == []


def test_findings_at_follow_the_text_linecache_holds(tmp_path):
    name = "<ipython-input-7-abc>"
    linecache.cache[name] = (len(SOURCE), None, SOURCE.splitlines(True), name)
    try:
        assert [f.code for f in lint.findings_at(name, 6, "step")] == ["TFD140"]
        fixed = SOURCE.replace("x.numpy()", "x")
        linecache.cache[name] = (len(fixed), None, fixed.splitlines(True), name)
        assert lint.findings_at(name, 6, "step") == []  # an edited cell is analysed anew
    finally:
        linecache.cache.pop(name, None)


def test_findings_at_never_raises():
    assert lint.findings_at("/no/such/file.py", 3) == []
    assert lint.findings_at("", 1, object()) == []


def test_findings_at_include_inferred_findings_with_their_confidence(tmp_path):
    # an error raised at the line is the evidence an inferred finding lacks
    path = str(tmp_path / "model.py")
    with open(path, "w") as fh:
        fh.write("import tensorflow as tf\nimport keras\n\nclass M(keras.Model):\n"
                 "    def __init__(self):\n        super().__init__()\n"
                 "        self.d = keras.layers.Dense(1)\n\n    @tf.function\n"
                 "    def call(self, x):\n        return self.d(x)\n")
    assert [(f.code, f.confidence) for f in lint.findings_at(path, 9)] == [
        ("TFD165", "inferred")]
    assert lint.lint_file(path) == []
