"""tfdebug's pytest plugin (``pytest11`` entry point). Inert unless asked."""
