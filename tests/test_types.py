"""mypy over engine/ and cli/ reports nothing, under the strictness pyproject.toml documents ([tool.mypy])."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_engine_and_cli_type_check(tmp_path, monkeypatch):
    # mypy does not follow the editable install's import hook: give it the package by a link.
    (tmp_path / "path").mkdir()
    (tmp_path / "path" / "seorap").symlink_to(ROOT, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MYPYPATH", str(tmp_path / "path"))
    out, err, status = api.run(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "-p",
            "seorap.engine",
            "-p",
            "seorap.cli",
            "--cache-dir",
            str(tmp_path / "mypy"),
        ]
    )
    assert status == 0, out + err
