"""The `seorap` command line: a thin client of the engine (and, for `demo`/`inspect`, of the app)."""
