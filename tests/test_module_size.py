"""The guard's trace-time work follows the traced function, not its module: a module is
parsed and indexed once, and each of its functions is then found without walking it."""
import ast
import importlib.util
import sys
import warnings

import pytest
import tensorflow as tf

import tfdebug
from tfdebug import _source

pytestmark = pytest.mark.smoke

FUNCTION = '''
def f_{i}(x):
    y = x * {i}.0
    return tf.reduce_sum(y)
'''


def _module(tmp_path, size, name):
    path = tmp_path / f"{name}.py"
    path.write_text("import tensorflow as tf\n\n\nlambda_a, lambda_b = lambda x: x, lambda y: -y\n"
                    + "".join(FUNCTION.format(i=i) for i in range(size)))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _counting_walks(monkeypatch):
    walks = []
    real = ast.walk

    def walk(node):
        if isinstance(node, ast.Module):
            walks.append(node)
        return real(node)

    monkeypatch.setattr(ast, "walk", walk)
    return walks


def test_finding_each_function_of_a_big_module_walks_it_once(tmp_path, monkeypatch):
    module = _module(tmp_path, 500, "tfdebug_size_probe_a")
    walks = _counting_walks(monkeypatch)
    for i in range(0, 500, 5):
        node = _source.function_node(getattr(module, f"f_{i}").__code__)
        assert isinstance(node, ast.FunctionDef) and node.name == f"f_{i}"
    assert len(walks) <= 2, len(walks)  # the index once (and at most one other whole walk)
    # two lambdas on one line: told apart by their parameters, as before
    assert _source.function_node(module.lambda_b.__code__).args.args[0].arg == "y"
    assert _source.function_node(module.lambda_a.__code__).args.args[0].arg == "x"


def test_the_guard_tracing_functions_of_a_big_module_walks_it_once(tmp_path, monkeypatch):
    module = _module(tmp_path, 300, "tfdebug_size_probe_b")
    spec = tf.TensorSpec([4], tf.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tfdebug.side_effect_guard(action="log"):
            tf.function(module.f_0).get_concrete_function(spec)
            walks = _counting_walks(monkeypatch)
            for i in range(1, 41):
                tf.function(getattr(module, f"f_{i}")).get_concrete_function(spec)
    # the whole module walked once at most (its index), not once per traced function
    assert len([w for w in walks if len(w.body) > 300]) <= 1
