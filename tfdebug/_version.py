"""tfdebug's version: one string, importable without TensorFlow or the package face."""
__version__ = "0.1.0"
