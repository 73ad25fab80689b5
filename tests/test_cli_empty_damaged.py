"""A damaged database that reads as empty is named damaged, not empty.

Whether a query meets a damaged page depends on the planner and the file's layout: a query may
read only pages that are intact and find nothing (CI's damaged-database case once got "no scored
runs" from `report`). Every message that says a database holds nothing (no runs, no scored runs,
no such run, no such scoring setup) first checks the file's pages (``PRAGMA quick_check``).
Here the damage is where no such query looks: a table of its own, and the run tables empty."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from test_cli_bad_inputs import seorap

from seorap.engine.store.database import open_db


@pytest.fixture(scope="module")
def damaged_empty(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("empty_damaged")
    path = d / "runs.db"
    open_db(path).conn.close()  # every table of ours, empty
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.executemany("INSERT INTO notes VALUES (?)", [("메모 " * 40,) for _ in range(300)])
    conn.commit()
    pages = [
        r[0]
        for r in conn.execute("SELECT pageno FROM dbstat WHERE name='notes' AND pagetype='leaf'")
    ]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    assert conn.execute("SELECT count(*) FROM runs").fetchone()[0] == 0
    conn.close()
    assert len(pages) > 1
    with open(path, "r+b") as fh:
        for n in pages:
            fh.seek((n - 1) * size + 8)
            fh.write(b"\xff" * (size - 8))
    return d


@pytest.mark.parametrize(
    "args",
    [
        ["runs", "--db", "runs.db"],
        ["runs", "--db", "runs.db", "--json"],
        ["report", "--db", "runs.db"],
        ["report", "--db", "runs.db", "--run", "oracle"],
        ["report", "--db", "runs.db", "--scoring", "nope"],
    ],
    ids=lambda args: " ".join(args[:1] + args[3:]),
)
def test_an_empty_answer_from_a_damaged_file_says_damaged(damaged_empty, args):
    out = seorap(*args, cwd=damaged_empty)
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    last = out.stderr.strip().splitlines()[-1]
    assert "runs.db is damaged" in last, out.stderr
