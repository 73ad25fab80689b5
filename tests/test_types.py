"""mypy over engine/ reports nothing, under the strictness pyproject.toml documents ([tool.mypy])."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_engine_type_checks(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                "--cache-dir", str(tmp_path / "mypy")])
    assert status == 0, out + err
