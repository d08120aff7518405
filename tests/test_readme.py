"""The README is a manual a newcomer reads in ten minutes, and every link in it leads somewhere."""
import os
import re

import pytest

from conftest import ROOT

pytestmark = pytest.mark.smoke

README = os.path.join(ROOT, "README.md")
MAX_LINES = 600

_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _readme():
    with open(README, encoding="utf-8") as f:
        return f.read()


def _anchor(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def test_readme_is_short():
    lines = _readme().count("\n")
    assert lines <= MAX_LINES, f"README.md has {lines} lines; the engineering figures go to docs/"


def test_every_relative_link_exists():
    targets = [t for t in _LINK.findall(_readme()) if "://" not in t and not t.startswith("#")]
    assert any(t.startswith("docs/") for t in targets)
    missing = [t for t in targets if not os.path.exists(os.path.join(ROOT, t.split("#")[0]))]
    assert not missing, f"README.md links to files that do not exist: {missing}"


def test_every_docs_page_links_to_pages_that_exist():
    docs = os.path.join(ROOT, "docs")
    missing = []
    for name in sorted(os.listdir(docs)):
        if not name.endswith(".md"):
            continue
        with open(os.path.join(docs, name), encoding="utf-8") as f:
            for target in _LINK.findall(f.read()):
                if "://" in target or target.startswith("#"):
                    continue
                if not os.path.exists(os.path.join(docs, target.split("#")[0])):
                    missing.append(f"docs/{name} -> {target}")
    assert not missing, f"links to files that do not exist: {missing}"


def test_every_anchor_names_a_heading():
    text = _readme()
    headings = {_anchor(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}
    anchors = [t[1:] for t in _LINK.findall(text) if t.startswith("#")]
    assert anchors
    broken = [a for a in anchors if a not in headings]
    assert not broken, f"README.md links to sections that do not exist: {broken}"
