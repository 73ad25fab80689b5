"""Adversarial probes: settings. Every config value out of its range, a judge prompt that is a path,
a server URL that is no URL (also offline and in `seorap models`) and a broken variant file are
refused before any work — no database is created — with one located sentence."""

from __future__ import annotations

import pytest
from adversarial_support import (  # noqa: F401 - fixture
    env_for,
    foreign,
    one_sentence,
    seorap,
    small_corpus,
)


@pytest.mark.parametrize(
    "body,key",
    [
        ("timeout_s = inf", "timeout_s"),
        ("timeout_s = nan", "timeout_s"),
        ("first_token_s = 0", "first_token_s"),
        ("temperature = -5", "temperature"),
        ("num_ctx = 0", "num_ctx"),
        ("concurrency = 0", "concurrency"),
        ("seed = 99999999999999999999", "seed"),
        ('keep_alive = "soon"', "keep_alive"),
        ('api_key_env = "A B"', "api_key_env"),
        ("[retrieval]\ntop_k = -1", "top_k"),
        ("[retrieval]\nbm25_weight = -0.5", "bm25_weight"),
        ("[retrieval]\ndense_weight = inf", "dense_weight"),
        ("[judging]\nfilter_threshold = 0", "filter_threshold"),
        ('[judging]\nprompt = "../../../etc/passwd"', "judging.prompt"),
        ('[judging]\nprompt = "/etc/passwd"', "judging.prompt"),
        ("[num_predict]\njudge = 0", "judge"),
        ("num_predict = -1", "num_predict"),
    ],
)
def test_out_of_range_setting_is_refused_before_any_work(tmp_path, foreign, body, key):
    config = tmp_path / "bad.toml"
    config.write_text(body + "\n", encoding="utf-8")
    corpus = small_corpus(tmp_path / "corpus")
    db = tmp_path / "never.db"
    proc = seorap(
        tmp_path, "run", "--corpus", corpus, "--system", "A", "--db", db, "--offline",
        "--config", config,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    one_sentence(proc.stderr)  # the closing sentence; each problem located above it
    assert "bad.toml:" in proc.stderr and key in proc.stderr
    assert not db.exists()


BAD_URLS = ["http://256.256.256.256", "http://[::1", "ftp://example.org", "http://x:99999", " "]


@pytest.mark.parametrize("url", BAD_URLS)
def test_a_host_that_is_no_url_is_one_sentence_offline_too(tmp_path, foreign, url):
    corpus = small_corpus(tmp_path / "corpus")
    db = tmp_path / "never.db"
    env = env_for(tmp_path, OLLAMA_HOST=url)
    run = seorap(
        tmp_path, "run", "--corpus", corpus, "--system", "A", "--db", db, "--offline", env=env
    )
    assert run.returncode == 2, run.stderr
    assert "not a usable server URL" in one_sentence(run.stderr)
    assert not db.exists()
    models = seorap(tmp_path, "models", env=env)
    assert models.returncode == 2 and "not a usable server URL" in one_sentence(models.stderr)


def test_a_host_flag_that_is_no_url(tmp_path, foreign):
    corpus = small_corpus(tmp_path / "corpus")
    proc = seorap(
        tmp_path, "run", "--corpus", corpus, "--system", "A", "--db", tmp_path / "n.db",
        "--host", "http://256.256.256.256", "--host", "http://localhost:1",
    )  # fmt: skip
    assert proc.returncode == 2 and "256.256.256.256" in one_sentence(proc.stderr)


def test_a_broken_variant_reports_its_own_error_under_its_declared_name(tmp_path, foreign):
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "file-name.toml").write_text('name = "Zed"\nk = "many"\n', encoding="utf-8")
    corpus = small_corpus(tmp_path / "corpus")
    proc = seorap(
        tmp_path, "run", "--corpus", corpus, "--system", "Zed", "--variants-dir", folder,
        "--db", tmp_path / "n.db", "--offline",
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    said = one_sentence(proc.stderr)
    assert "file-name.toml:2" in said and "unknown system" not in said
    assert not (tmp_path / "n.db").exists()


@pytest.mark.parametrize(
    "body",
    [
        'name = "V"\nextraction_prompt = "../../../../etc/passwd"\n',
        'name = "V"\nextraction_prompt = "missing.txt"\n',
        'name = "V"\nreinforce_step = -1\n',
        'name = "V"\ndefault_confidence = inf\n',
    ],
)
def test_a_variant_file_is_checked_whole_before_any_work(tmp_path, foreign, body):
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "V.toml").write_text(body, encoding="utf-8")
    corpus = small_corpus(tmp_path / "corpus")
    proc = seorap(
        tmp_path, "run", "--corpus", corpus, "--system", "V", "--variants-dir", folder,
        "--db", tmp_path / "n.db", "--offline",
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    assert "V.toml" in one_sentence(proc.stderr)
    assert not (tmp_path / "n.db").exists()


def test_a_config_that_is_a_pipe_or_endless_is_refused(tmp_path, foreign):
    import os

    os.mkfifo(tmp_path / "pipe.toml")
    corpus = small_corpus(tmp_path / "corpus")
    for config, words in [
        (tmp_path / "pipe.toml", "not a regular file"),
        ("/dev/zero", "not a regular file"),
    ]:
        proc = seorap(
            tmp_path, "run", "--corpus", corpus, "--system", "oracle", "--db", tmp_path / "n.db",
            "--offline", "--config", config, timeout=60,
        )  # fmt: skip
        assert proc.returncode == 1 and words in one_sentence(proc.stderr)
    assert not (tmp_path / "n.db").exists()


@pytest.mark.parametrize("kind", ["fifo", "dangling", "loop"])
def test_an_odd_variant_file_is_reported_not_waited_on(tmp_path, foreign, kind):
    import os

    folder = tmp_path / "variants"
    folder.mkdir()
    path = folder / "X.toml"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("nowhere.toml" if kind == "dangling" else "X.toml")
    corpus = small_corpus(tmp_path / "corpus")
    proc = seorap(
        tmp_path, "run", "--corpus", corpus, "--system", "X", "--variants-dir", folder,
        "--db", tmp_path / "n.db", "--offline", timeout=60,
    )  # fmt: skip
    assert proc.returncode == 1 and "X.toml" in one_sentence(proc.stderr)
