"""A walk through bad inputs a user can give: each exits with its code, stderr ends in one sentence,
and no traceback is printed (docs/cli.md, exit codes). Files that are not ours stay untouched."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from store_support import seorap_env

ROOT = Path(__file__).resolve().parents[1]
SEORAP = str(Path(sys.executable).parent / "seorap")
FILE = ROOT / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"


def seorap(*args: str, cwd: Path, shell_prefix: str = "") -> subprocess.CompletedProcess:
    env = seorap_env(SEORAP_LOG_DIR=str(cwd / "logs"))
    if shell_prefix:
        command = shell_prefix + " " + " ".join(f"'{a}'" for a in [SEORAP, *args])
        return subprocess.run(
            ["sh", "-c", command], capture_output=True, text=True, cwd=cwd, env=env, timeout=300
        )
    return subprocess.run(
        [SEORAP, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300
    )


@pytest.fixture(scope="module")
def place(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("bad")
    (d / "deep.json").write_text("[" * 200_000 + "]" * 200_000)
    (d / "notjson.txt").write_text("hello")
    (d / "empty").mkdir()
    (d / "file").write_text("a file, not a folder")
    (d / "malformed.toml").write_text("seed = \n")
    (d / "unknown.toml").write_text("seed = 1\njudge = 'lexical'\n")
    (d / "wrongtype.toml").write_text("[retrieval]\ntop_k = 'five'\n")
    (d / "latin1.toml").write_bytes("host = 'caf\xe9'\n".encode("latin-1"))
    (d / "variants").mkdir()
    (d / "variants" / "broken.toml").write_text("guard = \n")
    (d / "escape").mkdir()
    (d / "escape" / "sneaky.toml").write_text(
        'extraction_prompt = "../../../../../../etc/passwd"\n'
    )
    (d / "overrides.txt").write_text("this is not JSON")
    db = d / "runs.db"
    made = seorap(
        "run", "--corpus", str(FILE), "--system", "oracle", "--offline", "--db", str(db), cwd=d
    )
    assert made.returncode == 0, made.stderr
    (d / "none.json").write_text("[]")
    whole_copy(db, d / "ro.db")
    (d / "ro.db").chmod(0o444)
    whole_copy(db, d / "bad.db")  # damaged pages in what score, report and runs read; schema intact
    conn = sqlite3.connect(d / "bad.db")
    # what the damaged cases must meet: scored runs (else `report` rightly says there are none)
    assert conn.execute("SELECT count(*) FROM scores").fetchone()[0] > 0
    # every leaf page of these tables and of their indexes: which of them a query reads depends on
    # the planner (a count may read only an index) and the layout (which varies with the text
    # lengths of a run, e.g. its timings), so all of them, or a command may miss the damage
    tables = "('documents', 'facts_data', 'scores', 'verdicts_data')"
    pages = [
        r[0]
        for r in conn.execute(
            f"SELECT pageno FROM dbstat WHERE pagetype = 'leaf' AND (name IN {tables} OR name IN "
            f"(SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN {tables}))"
        )
    ]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with open(d / "bad.db", "r+b") as fh:
        for n in pages:
            fh.seek((n - 1) * size + 8)
            fh.write(b"\xff" * (size - 8))
    return d


def whole_copy(src: Path, dst: Path) -> None:
    """A copy of the database ``src`` as SQLite reads it, in one file: commits still in its -wal
    are in the copy (a copy of the main file alone would miss them, and the damage below would
    then hit tables without their rows)."""
    source, target = sqlite3.connect(src), sqlite3.connect(dst)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()


CASES = [
    # (name, args, exit code, words the last line must hold)
    ("validate deep JSON", ["validate", "deep.json"], 1, "problem"),
    (
        "run deep JSON",
        ["run", "--corpus", "deep.json", "--system", "oracle", "--offline", "--db", "x.db"],
        1,
        "invalid corpus",
    ),
    ("validate /dev/zero", ["validate", "/dev/zero"], 1, "problem"),
    (
        "report -o missing folder",
        ["report", "--db", "runs.db", "-o", "/missing/dir/r.md"],
        2,
        "does not exist",
    ),
    ("report -o the db", ["report", "--db", "runs.db", "-o", "runs.db"], 2, "database itself"),
    (
        "--db under a file",
        ["run", "--corpus", str(FILE), "--system", "oracle", "--offline", "--db", "file/x.db"],
        2,
        "not a folder",
    ),
    ("--db empty", ["report", "--db", ""], 2, "empty"),
    ("--db not SQLite", ["report", "--db", "notjson.txt"], 2, "not a seorap database"),
    (
        "config malformed",
        [
            "run",
            "--corpus",
            str(FILE),
            "--system",
            "oracle",
            "--db",
            "x.db",
            "--offline",
            "--config",
            "malformed.toml",
        ],
        1,
        "malformed.toml:1",
    ),
    (
        "config misplaced key",
        [
            "run",
            "--corpus",
            str(FILE),
            "--system",
            "oracle",
            "--db",
            "x.db",
            "--offline",
            "--config",
            "unknown.toml",
        ],
        1,
        "[models]",
    ),
    (
        "config wrong type",
        [
            "run",
            "--corpus",
            str(FILE),
            "--system",
            "oracle",
            "--db",
            "x.db",
            "--offline",
            "--config",
            "wrongtype.toml",
        ],
        1,
        "wrongtype.toml:2: retrieval.top_k",
    ),
    (
        "config not UTF-8",
        [
            "run",
            "--corpus",
            str(FILE),
            "--system",
            "oracle",
            "--db",
            "x.db",
            "--offline",
            "--config",
            "latin1.toml",
        ],
        1,
        "not UTF-8",
    ),
    (
        "bad variant file",
        [
            "run",
            "--corpus",
            str(FILE),
            "--system",
            "broken",
            "--variants-dir",
            "variants",
            "--db",
            "x.db",
            "--offline",
        ],
        1,
        "broken.toml:1",
    ),
    (
        "variant prompt escapes",
        [
            "run",
            "--corpus",
            str(FILE),
            "--system",
            "sneaky",
            "--variants-dir",
            "escape",
            "--db",
            "x.db",
            "--offline",
        ],
        1,
        "outside the variant's folder",
    ),
    (
        "system override value",
        ["run", "--corpus", str(FILE), "--system", "A:guard=bogus", "--db", "x.db", "--offline"],
        2,
        "guard",
    ),
    (
        "system override key",
        ["run", "--corpus", str(FILE), "--system", "A:colour=red", "--db", "x.db", "--offline"],
        2,
        "unknown key 'colour'",
    ),
    (
        "demo corpus not JSON",
        ["demo", "--corpus", "notjson.txt", "--db", "demo.db", "--no-probe"],
        1,
        "invalid corpus",
    ),
    (
        "demo empty corpus",
        ["demo", "--corpus", "empty", "--db", "demo.db", "--no-probe"],
        1,
        "invalid corpus",
    ),
    (
        "overrides not JSON",
        ["report", "--db", "runs.db", "--overrides", "overrides.txt"],
        1,
        "not a readable JSON",
    ),
    (
        "override --file not JSON",
        ["override", "--db", "runs.db", "--file", "overrides.txt"],
        1,
        "not a readable JSON",
    ),
    ("threshold 2", ["score", "--db", "runs.db", "--threshold", "2"], 2, "outside (0, 1]"),
    ("threshold -1", ["score", "--db", "runs.db", "--threshold", "-1"], 2, "outside (0, 1]"),
    (
        "concurrency 0",
        ["run", "--corpus", str(FILE), "--system", "oracle", "--db", "x.db", "--concurrency", "0"],
        2,
        "--concurrency",
    ),
    (
        "concurrency -1",
        ["run", "--corpus", str(FILE), "--system", "oracle", "--db", "x.db", "--concurrency", "-1"],
        2,
        "--concurrency",
    ),
    (
        "unknown scoring",
        ["report", "--db", "runs.db", "--scoring", "nosuch"],
        2,
        "no scoring setup 'nosuch'",
    ),
    (
        "unknown run",
        ["score", "--db", "runs.db", "--run", "nosuch", "--offline"],
        2,
        "no run 'nosuch'",
    ),
    ("score a damaged db", ["score", "--db", "bad.db", "--offline"], 2, "bad.db is damaged"),
    ("report a damaged db", ["report", "--db", "bad.db"], 2, "bad.db is damaged"),
    ("runs on a damaged db", ["runs", "--db", "bad.db"], 2, "bad.db is damaged"),
    ("inspect a damaged db", ["inspect", "--db", "bad.db"], 2, "bad.db is damaged"),
    ("score a read-only db", ["score", "--db", "ro.db", "--offline"], 2, "ro.db is read-only"),
    (
        "override a read-only db",
        ["override", "--db", "ro.db", "--file", "none.json"],
        2,
        "ro.db is read-only",
    ),
    (
        "runs rm on a read-only db",
        ["runs", "rm", "oracle", "--yes", "--db", "ro.db"],
        2,
        "ro.db is read-only",
    ),
    (
        "judge-audit on a read-only db",
        ["judge-audit", "--corpus", str(FILE), "--db", "ro.db"],
        2,
        "ro.db is read-only",
    ),
]


@pytest.mark.parametrize("name,args,code,words", CASES, ids=[c[0] for c in CASES])
def test_bad_input_gets_one_sentence(place, name, args, code, words):
    before = {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in place.iterdir() if p.is_file()
    }
    out = seorap(*args, cwd=place)
    assert out.returncode == code, (name, out.stderr)
    assert "Traceback" not in out.stderr + out.stdout
    lines = [line for line in out.stderr.strip().splitlines() if line.strip()]
    assert lines and words in lines[-1] or words in out.stderr, out.stderr
    after = {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in place.iterdir() if p.is_file()
    }
    ours = ("runs.db", "logs")  # the database the commands may write, and its -wal/-shm files
    assert {k: v for k, v in after.items() if k in before and not k.startswith(ours)} == {
        k: v for k, v in before.items() if not k.startswith(ours)
    }
    assert not (place / "demo.db").exists() and not (place / "x.db").exists()


def test_names_and_prefixes_resolve_alike_everywhere(place):
    for args in (
        ["score", "--offline"],
        ["report", "--format", "json"],
        ["diff", "--kind", "claim"],
    ):
        for ref in ("oracle", "oracle-"):
            out = seorap(*args, "--db", "runs.db", "--run", ref, cwd=place)
            assert out.returncode == 0, (args, ref, out.stderr)


def test_bundled_variant_still_works_beside_a_broken_one(place, tmp_path):
    out = seorap(
        "run",
        "--corpus",
        str(FILE),
        "--system",
        "A",
        "--variants-dir",
        "variants",
        "--offline",
        "--no-score",
        "--db",
        str(tmp_path / "a.db"),
        cwd=place,
    )
    assert out.returncode == 0, out.stderr


@pytest.mark.slow  # heavy: keeps the README lane under 25 min on a quiet 2-core machine
def test_disk_full_is_one_sentence_and_the_run_reads_interrupted(place, tmp_path):
    db = tmp_path / "full.db"
    out = seorap(
        "run",
        "--corpus",
        str(ROOT / "fixtures" / "ko-mini"),
        "--system",
        "raw",
        "--offline",
        "--db",
        str(db),
        cwd=place,
        shell_prefix="ulimit -f 2000;",
    )
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    assert "resume" in out.stderr.strip().splitlines()[-1]
    from seorap.engine.store.database import open_db
    from seorap.engine.store.lease import run_statuses

    statuses = set(run_statuses(open_db(db, readonly=True)).values())
    assert statuses <= {"interrupted", "failed"}
    resumed = seorap(
        "run",
        "--corpus",
        str(ROOT / "fixtures" / "ko-mini"),
        "--system",
        "raw",
        "--offline",
        "--db",
        str(db),
        cwd=place,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert set(run_statuses(open_db(db, readonly=True)).values()) == {"done"}


def test_disk_full_while_scoring_is_one_sentence(place, tmp_path):
    db = tmp_path / "s.db"
    whole_copy(place / "runs.db", db)
    out = seorap("score", "--db", str(db), "--offline", cwd=place, shell_prefix="ulimit -f 100;")
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    assert "s.db" in out.stderr.strip().splitlines()[-1]
