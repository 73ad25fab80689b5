"""mypy over engine/, cli/ and tui/ reports nothing, under the strictness pyproject.toml documents
([tool.mypy]: harlequin's flags for the app; engine/ and cli/ with the few still turned off there).

The everyday check gives mypy the repository as the package `seorap` by a link in a temporary
folder (the repository root is the package, and a lenient editable install is an import hook mypy
does not follow); the slow check shows the installed package is found with no link of ours."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parents[1]


PACKAGES = ["-p", "seorap.engine", "-p", "seorap.cli", "-p", "seorap.tui"]
"""The three layers, checked in one run (the engine, the CLI and the app)."""


@pytest.mark.slow  # heavy: keeps the README lane under 25 min on a quiet 2-core machine
def test_engine_cli_and_app_type_check(tmp_path, monkeypatch):
    # mypy does not follow a lenient editable install's import hook: the package by a link here.
    (tmp_path / "path").mkdir()
    (tmp_path / "path" / "seorap").symlink_to(ROOT, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MYPYPATH", str(tmp_path / "path"))
    out, err, status = api.run(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            *PACKAGES,
            "--cache-dir",
            str(tmp_path / "mypy"),
        ]
    )
    assert status == 0, out + err


@pytest.mark.slow
def test_mypy_finds_the_installed_package_without_a_link(tmp_path):
    """The same check through a strict editable install (its link tree is what a .pth names, which
    mypy reads, unlike the lenient install's import hook) and the package's py.typed: no MYPYPATH.
    A throwaway environment sees this one's packages through a .pth; this one is left alone."""
    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "shared.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps"]
        + ["--no-build-isolation", "--config-settings", "editable_mode=strict", "-e", str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    out, err, status = api.run(
        ["--config-file", str(ROOT / "pyproject.toml"), "--python-executable", str(python)]
        + [*PACKAGES, "--cache-dir", str(tmp_path / "mypy")]
    )
    assert status == 0, out + err
