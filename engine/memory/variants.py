"""Variants are data: a TOML file (policy) plus prompt files (docs/design.md#the-memory-system).

Bundled: ``engine/variants/{A,B,C}.toml`` with prompts in ``engine/prompts``. Users add a ``*.toml``
in a directory passed as ``--variants-dir`` (or ``variants_dirs`` in code); a prompt file is looked
up next to the TOML first, then in ``engine/prompts``. A system name may override policy keys:
``A:guard=merge,confidence=authors``.
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.errors import UnknownSystem, UsageError

ENGINE = Path(__file__).resolve().parent.parent
BUNDLED_DIR = ENGINE / "variants"
PROMPTS_DIR = ENGINE / "prompts"


class Variant(BaseModel):
    """One memory-system variant. Every field can be set in the TOML file."""

    model_config = ConfigDict(extra="forbid")

    name: str
    """Name used with --system."""
    description: str = ""
    """One line for listings."""
    policy: Literal["synthesize", "append"] = "synthesize"
    """synthesize: the LLM classifies each observation; append: every observation becomes a fact."""
    extraction_prompt: str = "extract.txt"
    """System prompt file for extraction."""
    synthesis_prompt: str | None = "synthesis_A.txt"
    """System prompt file for synthesis (unused by append)."""
    k: int = Field(3, ge=1)
    """Candidate facts shown per observation."""
    guard: Literal["off", "downgrade", "merge"] = "downgrade"
    """Temporal guard for observations older than the fact's last change."""
    confidence: Literal["paper", "authors"] = "paper"
    """paper: +reinforce_step per reinforce; authors: only a new distinct author reinforces."""
    reinforce_step: float = 0.1
    """Confidence added by a counted reinforce (capped at 1)."""
    default_confidence: float = 0.7
    """Confidence when the model gives none (append policy)."""
    source: str = ""
    """The TOML file it came from (set by the loader)."""

    def prompt_path(self, filename: str) -> Path:
        for folder in (Path(self.source).parent if self.source else None, PROMPTS_DIR):
            if folder is not None and (folder / filename).is_file():
                return folder / filename
        raise FileNotFoundError(f"variant {self.name!r}: prompt file {filename!r} not found next to "
                                f"{self.source or 'the variant'} or in {PROMPTS_DIR}")

    def prompt(self, filename: str) -> str:
        return self.prompt_path(filename).read_text(encoding="utf-8")

    def spec(self) -> dict:
        """Policy plus a digest of each prompt's text (run ids change when a prompt changes)."""
        data = self.model_dump(exclude={"source", "description"})
        for key in ("extraction_prompt", "synthesis_prompt"):
            name = data.get(key)
            if name and not (self.policy == "append" and key == "synthesis_prompt"):
                data[key + "_sha"] = hashlib.sha256(self.prompt(name).encode()).hexdigest()[:16]
        return {"kind": "variant", **data}


def load_variant(path: str | Path) -> Variant:
    path = Path(path)
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    data.setdefault("name", path.stem)
    return Variant.model_validate({**data, "source": str(path)})


def load_variants(dirs: list[str | Path] | None = None) -> dict[str, Variant]:
    """name -> Variant, bundled first; later directories override earlier names."""
    out: dict[str, Variant] = {}
    for folder in [BUNDLED_DIR, *(Path(d) for d in dirs or [])]:
        for path in sorted(Path(folder).glob("*.toml")):
            variant = load_variant(path)
            out[variant.name] = variant
    return out


def parse_overrides(text: str) -> dict[str, str]:
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise UsageError(f"override {part!r} is not key=value")
        out[key.strip()] = value.strip()
    return out


def resolve_variant(name: str, dirs: list[str | Path] | None = None) -> Variant:
    """``A`` or ``A:guard=merge,confidence=authors``; raises UnknownSystem for unknown names."""
    from engine.memory.reference import REFERENCE_SYSTEMS

    base, _, overrides = name.partition(":")
    variants = load_variants(dirs)
    if base not in variants:
        known = ", ".join(list(REFERENCE_SYSTEMS) + sorted(variants))
        raise UnknownSystem(f"unknown system {base!r}; known: {known} (or add a variant TOML with "
                            f"--variants-dir)")
    variant = variants[base]
    if overrides:
        variant = Variant.model_validate({**variant.model_dump(), **parse_overrides(overrides),
                                          "name": name})
    return variant
