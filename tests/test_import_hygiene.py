"""The engine never imports the app: every engine module imports in a fresh interpreter with no
textual/tui in sys.modules, and without torch/FlagEmbedding (heavy backends load only when used)."""

import pkgutil
import subprocess
import sys
from pathlib import Path

from seorap import engine

ROOT = Path(__file__).resolve().parents[1]


def engine_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(engine.__path__, prefix="seorap.engine."))


def test_engine_modules_do_not_import_tui_or_heavy_backends():
    code = (
        "import importlib, sys\n"
        f"mods = {engine_modules()!r}\n"
        "for m in mods: importlib.import_module(m)\n"
        "bad = [n for n in ('textual', 'seorap.tui', 'seorap.cli', 'torch', 'FlagEmbedding', 'transformers') if n in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"engine imported: {out.stdout.strip()}"


def test_no_static_tui_imports_in_engine_source():
    offenders = []
    for path in (ROOT / "engine").rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith(("import tui", "from tui", "import textual", "from textual")):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {stripped}")
    assert offenders == []


def test_cli_help_loads_no_heavy_module():
    """`seorap --help` (every command registers at start-up) loads neither the app nor a model
    backend, the tokenizer, or the store (sqlite-utils pulls pandas and numpy in when installed)."""
    code = (
        "import sys\n"
        "sys.argv = ['seorap', '--help']\n"
        "from seorap.cli.main import cli\n"
        "try:\n"
        "    cli()\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('textual', 'seorap.tui', 'torch', 'FlagEmbedding', 'kiwipiepy', 'sqlite_utils',\n"
        "         'numpy', 'pandas', 'httpx', 'ollama')\n"
        "print(','.join(n for n in heavy if n in sys.modules), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "Usage" in out.stdout
    assert out.stderr.strip() == "", f"`seorap --help` imported: {out.stderr.strip()}"
