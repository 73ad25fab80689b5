"""Tests against a real Ollama server and real bge-m3 weights. They skip, saying why, when those are
absent (as on our CI machines); on a user's machine with them they must pass.

- `live`: OLLAMA_HOST (default http://localhost:11434) answers and has the configured write-path,
  answer and judge models (`seorap models check`; `seorap models pull` fetches them).
- `weights`: bge-m3 is on disk — SEORAP_BGE_M3_PATH points at a local BAAI/bge-m3 directory, or it is
  already in the Hugging Face cache — and FlagEmbedding is installed (`pip install -e ".[bge]"`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from seorap.engine.config import load_config
from seorap.engine.corpus import load_corpus
from seorap.engine.models.base import ModelError
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "ko-mini" / "ko-c5-seminar.json"


@pytest.fixture(scope="module")
def live_config():
    from seorap.engine.models.manage import check_models

    config = load_config(timeout_s=600.0).with_overrides({"embedder_backend": "hashing"})
    try:
        check_models(config, roles=("extractor", "synthesizer", "answerer", "judge"))
    except ModelError as exc:
        pytest.skip(f"needs a live Ollama with the configured models: {exc}")
    return config


@pytest.mark.live
def test_live_variant_a_writes_scores_and_rescoring_is_free(live_config, tmp_path):
    from seorap.engine.scoring import score_run

    db = open_db(tmp_path / "live.db")
    corpus = load_corpus(CORPUS)
    [run_id] = run(corpus, ["A"], db, live_config)
    docs = db["documents"].count_where("run_id = ?", [run_id])
    assert docs == len(corpus.trajectories[0].states)
    failures = db["write_failures"].count_where("run_id = ?", [run_id])
    observations = db["observations"].count_where("run_id = ?", [run_id])
    assert (
        observations + failures > 0
    )  # every document either gave observations or a counted failure
    card = next(
        db.query("SELECT card FROM scores WHERE run_id = ? AND trajectory_id = ''", [run_id])
    )
    first = json.loads(card["card"])
    assert first["scoring_calls"] > 0
    score_run(db, run_id, live_config, corpus=corpus)
    card = next(
        db.query("SELECT card FROM scores WHERE run_id = ? AND trajectory_id = ''", [run_id])
    )
    assert json.loads(card["card"])["scoring_calls"] == 0


def bge_m3_path() -> str:
    if os.environ.get("SEORAP_BGE_M3_PATH"):
        return os.environ["SEORAP_BGE_M3_PATH"]
    try:
        from huggingface_hub import snapshot_download

        return snapshot_download("BAAI/bge-m3", local_files_only=True)
    except Exception as exc:  # noqa: BLE001 - not installed, not cached, offline...
        pytest.skip(f"needs bge-m3 weights on disk (SEORAP_BGE_M3_PATH or the HF cache): {exc}")


@pytest.mark.weights
def test_real_bge_m3_ranks_a_paraphrase_above_an_unrelated_sentence():
    pytest.importorskip("FlagEmbedding", reason="needs FlagEmbedding: pip install -e '.[bge]'")
    from seorap.engine.models.embedders import BGEM3Embedder

    emb = BGEM3Embedder(bge_m3_path())
    vecs = emb.embed(
        [
            "11월 세미나는 온라인 웨비나로 바뀌었다",
            "11월 고객 행사는 온라인으로 진행한다",
            "결제 API 장애의 원인은 인증서 만료였다",
        ]
    )
    assert vecs.shape == (3, 1024)
    sims = vecs @ vecs.T
    assert sims[0, 1] > sims[0, 2]
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
