"""A real package: one top-level import name, the bundled corpus inside the wheel, and nothing in
the test session imported under the old top-level names (a module loaded twice breaks isinstance)."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_wheel_has_one_top_level_name_and_the_corpus(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-v",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "absent from the `packages` configuration" not in out.stdout + out.stderr
    [wheel] = tmp_path.glob("seorap-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"seorap"}
    corpus = sorted(p.name for p in (ROOT / "fixtures" / "ko-mini").glob("*.json"))
    assert corpus and all(f"seorap/fixtures/ko-mini/{name}" in names for name in corpus)
    recordings = sorted(p.name for p in (ROOT / "fixtures" / "recordings").glob("*.jsonl.gz"))
    assert all(f"seorap/fixtures/recordings/{name}" in names for name in recordings)
    for needed in (
        "seorap/cli/main.py",
        "seorap/py.typed",  # the whole package is typed: mypy reads an installed copy
        "seorap/engine/prompts/extract.txt",
        "seorap/tui/seorap.tcss",
        "seorap/engine/variants/A.toml",
        "seorap/fixtures/ko-mini/glossary.tsv",  # the lexical judge's aliases travel with it
        "seorap/engine/scoring/lexical/neutral.tsv",  # and its neutral lexicon
        "seorap/engine/scoring/lexical/predicates.tsv",  # and its predicate synonyms
    ):
        assert needed in names
    entry = (
        zipfile.ZipFile(wheel)
        .read(next(n for n in names if n.endswith("entry_points.txt")))
        .decode()
    )
    assert "seorap = seorap.cli.main:main" in entry


@pytest.mark.slow
def test_the_sdist_is_the_package_and_its_metadata(tmp_path):
    """No half of the test suite in the sdist: tests, benchmarks, docs and examples stay in the
    repository (MANIFEST.in), so what is shipped is exactly what installs. The suite needs the
    repository anyway (its fakes, snapshots and data beside the tests; about 25 minutes in all), so
    a packager runs it from a checkout. The wheel built from the sdist holds every file the wheel
    built from the repository holds."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--sdist",
            "--no-isolation",
            "-o",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0 and "No module named build" in out.stderr:
        pytest.skip("the `build` package is not installed")
    assert out.returncode == 0, out.stderr[-2000:]
    [sdist] = tmp_path.glob("seorap-*.tar.gz")
    with tarfile.open(sdist) as tar:
        tops = {n.split("/")[1] for n in tar.getnames() if n.count("/") >= 1}
    assert not tops & {"tests", "bench", "docs", "examples", ".ci"}
    assert {"engine", "tui", "cli", "fixtures", "pyproject.toml", "README.md"} <= tops
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path / "unpacked", filter="data")
    [unpacked] = (tmp_path / "unpacked").iterdir()
    names = _wheel_names(unpacked, tmp_path / "from-sdist")
    assert names == _wheel_names(ROOT, tmp_path / "from-tree")
    assert {"seorap/py.typed", "seorap/fixtures/ko-mini/glossary.tsv"} <= names


def _wheel_names(source: Path, out: Path) -> set[str]:
    """The package files (not the metadata) of the wheel pip builds from ``source``."""
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(out)]
        + [str(source)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    [wheel] = out.glob("seorap-*.whl")
    return {n for n in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in n}


def test_every_subpackage_is_listed_for_the_wheel():
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {"seorap"} | {
        "seorap." + ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("engine", "tui", "cli")
        for p in (ROOT / top).rglob("__init__.py")
    }
    data_only = {
        "seorap.fixtures",
        "seorap.fixtures.recordings",
        "seorap.engine.prompts",
        "seorap.engine.variants",
    }
    assert listed == found | data_only


def test_nothing_is_imported_under_the_old_top_level_names():
    import seorap.cli.main  # noqa: F401 - loads every command module
    import seorap.tui.app  # noqa: F401

    old = sorted(m for m in sys.modules if m.split(".")[0] in {"engine", "tui", "cli"})
    assert old == []
