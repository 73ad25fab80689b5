"""Named queries of the run database, one module per concept (runs, scores, verdicts, the call log
and its counters, what a run wrote, what it read). Every SQL string of seorap outside the store's own
layout lives here: views, scoring, the run, the models, the memory systems and the CLI call these
functions (tests/test_sql_in_store.py)."""
