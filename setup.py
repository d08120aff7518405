"""Packaging for tfdebug. The top-level recipes/ folder ships as package data tfdebug.recipes.

Installed without an extra, tfdebug gives the static commands (``lint``, ``recipes``, ``explain``);
the runtime features need TensorFlow: the ``[cpu]`` or ``[tf]`` extra.
"""
import re

from setuptools import setup

VERSION = re.search(r'__version__ = "([^"]+)"',
                    open("tfdebug/_version.py", encoding="utf-8").read()).group(1)

setup(
    name="tfdebug",
    version=VERSION,
    description="Make TensorFlow 2 tf.function / AutoGraph code debuggable.",
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    python_requires=">=3.11",
    packages=["tfdebug", "tfdebug._tf", "tfdebug._effects", "tfdebug.lint", "tfdebug.lint.checks", "tfdebug.recipes"],
    package_dir={"tfdebug": "tfdebug", "tfdebug.recipes": "recipes"},
    package_data={"tfdebug.recipes": ["*.toml", "_index.json"], "tfdebug": ["templates/*", "lint/*.json"]},
    include_package_data=True,
    install_requires=["icecream>=2.1", "tabulate>=0.9", "jinja2>=3.1"],
    extras_require={
        "tf": ["tensorflow>=2.16,<2.22"],
        "cpu": ["tensorflow-cpu>=2.16,<2.22"],
        "test": [
            "pytest>=7.4",
            "pytest-xdist>=3.5",
            "hypothesis>=6.80",
            "ipython>=8.12",
            "nbclient>=0.8",
            "nbformat>=5.9",
            "ipykernel>=6.20",
            "pexpect>=4.8",
            "build>=1.0",
            "setuptools>=64",
            "wheel>=0.40",
            "flake8>=6.0",
            "selenium>=4.11",
            "jsonschema>=4.18",
        ],
    },
    entry_points={
        "console_scripts": ["tfdebug = tfdebug.cli:main"],
        "pytest11": ["tfdebug = tfdebug.pytest_plugin"],
    },
    classifiers=[
        "Programming Language :: Python :: 3",
        "Framework :: Pytest",
        "Topic :: Software Development :: Debuggers",
    ],
)
