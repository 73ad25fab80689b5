"""A run keeps its scope: the trajectories it was asked to write (``--trajectory``), grown by each
later command that writes more of the same run, and None once it covers the whole corpus. The
runs view lists a run's trajectories from it (engine/views/runs.py)."""

from __future__ import annotations

import json
from pathlib import Path

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.records import grown_scope
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db
from seorap.engine.views.runs import list_runs, trajectory_rows

KO_MINI = Path(__file__).resolve().parents[1] / "fixtures" / "ko-mini"


def test_the_scope_grows_in_corpus_order_and_becomes_the_whole_corpus():
    corpus = ["a", "b", "c"]
    assert grown_scope(["c"], ["a"], corpus) == ["a", "c"]
    assert grown_scope(["a", "c"], ["b"], corpus) is None  # every trajectory: the whole corpus
    assert grown_scope(["a"], None, corpus) is None  # a later run of the whole corpus
    assert grown_scope(["a"], ["a"], corpus) == ["a"]


def _scope(db, run_id):
    return json.loads(db.table("runs").get(run_id)["manifest"])["scope"]


def test_the_runs_view_lists_only_the_trajectories_a_run_wrote(tmp_path):
    corpus = load_corpus(KO_MINI)
    ids = [t.id for t in corpus.trajectories]
    db = open_db(tmp_path / "s.db")
    config = Config.offline()
    [rid] = run(corpus, ["oracle"], db, config, trajectories=[ids[3]], score=False)
    assert _scope(db, rid) == [ids[3]]
    assert [r.trajectory_id for r in trajectory_rows(db, corpus, [rid])] == [ids[3]]
    # the same command for another trajectory resumes the same run: its scope grows
    assert run(corpus, ["oracle"], db, config, trajectories=[ids[0]], score=False) == [rid]
    assert _scope(db, rid) == [ids[0], ids[3]]
    assert [r.trajectory_id for r in trajectory_rows(db, corpus, [rid])] == [ids[0], ids[3]]
    # and the whole corpus makes it whole
    run(corpus, ["oracle"], db, config, score=False)
    assert _scope(db, rid) is None
    assert [r.scope for r in list_runs(db)] == [None]
    assert [r.trajectory_id for r in trajectory_rows(db, corpus, [rid])] == ids


def test_a_run_of_the_whole_corpus_keeps_no_scope(tmp_path):
    corpus = load_corpus(KO_MINI)
    db = open_db(tmp_path / "w.db")
    [rid] = run(corpus, ["oracle"], db, Config.offline(), score=False)
    assert _scope(db, rid) is None
    assert len(trajectory_rows(db, corpus, [rid])) == len(corpus.trajectories)


def test_the_app_opens_on_the_first_trajectory_the_run_wrote(tmp_path):
    from seorap.tui.factory import make_app

    corpus = load_corpus(KO_MINI)
    last = corpus.trajectories[-1].id
    db = open_db(tmp_path / "a.db")
    run(corpus, ["oracle"], db, Config.offline(), trajectories=[last], score=False)
    db.conn.close()
    app = make_app(tmp_path / "a.db")
    assert app.ctx.selection.trajectory_id == last
