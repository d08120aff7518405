"""The stale-capture plan reads a traced function's bytecode at its first trace. On CPython
3.11 tfdebug decodes it itself (``dis.get_instructions`` renders every argument as text, a
large part of a small function's first trace); what it decodes must be what ``dis`` says."""
import dis
import importlib
import sys
import types

import pytest

from tfdebug import _captures

READ = ("LOAD_ATTR", "LOAD_METHOD", "STORE_ATTR", "STORE_GLOBAL", "LOAD_GLOBAL", "LOAD_FAST",
        "LOAD_DEREF", "LOAD_CLASSDEREF")


def _codes(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _as_dis_says(code):
    return [(ins.opname, ins.argval if ins.opname in READ else None,
             ins.positions.lineno if ins.positions else None)
            for ins in dis.get_instructions(code)]


def _compiled(module_name):
    module = importlib.import_module(module_name)
    with open(module.__file__, encoding="utf-8") as fh:
        return compile(fh.read(), module.__file__, "exec")


MODULES = ("ast", "dis", "inspect", "json.decoder", "argparse", "dataclasses", "collections",
           "tfdebug.trace_log", "tfdebug._effects.finder", "tfdebug.lint.walker")


@pytest.mark.parametrize("module_name", MODULES)
def test_decoded_instructions_are_dis_own(module_name):
    codes = list(_codes(_compiled(module_name)))
    assert len(codes) > 10
    for code in codes:
        assert _captures.instructions_of(code) == _as_dis_says(code), code


def test_extended_arguments_closures_and_self_attributes():
    # 400 globals and attributes: indexes past 255 need EXTENDED_ARG
    big = ("def big(x):\n" + "".join(f"    v{i} = g{i}.a{i}\n" for i in range(400))
           + "    return v0\n")
    source = big + (
        "def outer():\n    cell = [1]\n    def inner(self):\n"
        "        self.seen = cell\n        return self.config.rate + len(cell)\n    return inner\n")
    namespace = {}
    exec(compile(source, "<bytecode test>", "exec"), namespace)
    codes = [namespace["big"].__code__, namespace["outer"]().__code__]
    assert any(op == "EXTENDED_ARG" for op, _, _ in _as_dis_says(codes[0]))
    for code in codes:
        assert _captures.instructions_of(code) == _as_dis_says(code)
    loads, _, stored = _captures._plan(codes[1])
    assert ("closure", "cell", ()) in {(ld.base, ld.name, ld.attrs) for ld in loads}
    assert ("self", "self", ("config", "rate")) in {(ld.base, ld.name, ld.attrs) for ld in loads}
    assert stored == frozenset({"seen"})


def test_other_versions_use_dis():
    assert _captures._FAST_DECODE == (sys.version_info[:2] == (3, 11))
