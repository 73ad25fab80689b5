"""seorap (서랍): open an AI agent's memory drawer and grade what is inside.

The distribution's only import name. Its parts are folders at the repository root, mapped under
this package by pyproject.toml (``package-dir``): ``seorap.engine`` (data model, memory systems,
models, retrieval, scoring, store; draws nothing), ``seorap.tui`` (the Textual app) and
``seorap.cli`` (the ``seorap`` command). The bundled corpus ships inside it as ``fixtures/ko-mini``.
"""
