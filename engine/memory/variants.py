"""Variants are data: a TOML file (policy) plus prompt files (docs/design.md#the-memory-system).

Bundled: ``engine/variants/{A,B,C}.toml`` with prompts in ``engine/prompts``. Users add a ``*.toml``
in a directory passed as ``--variants-dir`` (or ``variants_dirs`` in code); a prompt file is looked
up next to the TOML first, then in ``engine/prompts``. A system name may override policy keys:
``A:guard=merge,confidence=authors``.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from seorap.engine.errors import ConfigError, UnknownSystem, UsageError
from seorap.engine.tomlfile import load_toml, validation_error

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
    k: int = Field(3, ge=1, le=1000)
    """Candidate facts shown per observation."""
    guard: Literal["off", "downgrade", "merge"] = "downgrade"
    """Temporal guard for observations older than the fact's last change."""
    confidence: Literal["paper", "authors"] = "paper"
    """paper: +reinforce_step per reinforce; authors: only a new distinct author reinforces."""
    reinforce_step: float = Field(0.1, ge=0, le=1, allow_inf_nan=False)
    """Confidence added by a counted reinforce (capped at 1)."""
    default_confidence: float = Field(0.7, ge=0, le=1, allow_inf_nan=False)
    """Confidence when the model gives none (append policy)."""
    source: str = ""
    """The TOML file it came from (set by the loader)."""

    def prompt_path(self, filename: str) -> Path:
        """The prompt file: a plain file name, looked up next to the variant's TOML, then among the
        bundled prompts. A name that leads out of those folders (``../``, an absolute path, a link
        pointing elsewhere) is refused: a variant file cannot send any file as a prompt."""
        for folder in (Path(self.source).parent if self.source else None, PROMPTS_DIR):
            if folder is None:
                continue
            candidate = folder / filename
            if not candidate.resolve().is_relative_to(folder.resolve()):
                raise ConfigError(
                    f"{self.source or 'variant ' + repr(self.name)}: prompt file "
                    f"{filename!r} is outside the variant's folder; give a file name "
                    "next to the variant file"
                )
            if candidate.is_file():
                return candidate
        raise ConfigError(
            f"{self.source or 'variant ' + repr(self.name)}: prompt file {filename!r} "
            f"not found next to the variant file or in {PROMPTS_DIR}"
        )

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
    """One variant file; ConfigError located as FILE:LINE: key: message."""

    path = Path(path)
    data, text = load_toml(path)
    if not isinstance(data.get("name", ""), str):
        data.pop("name")
    data.setdefault("name", path.stem)
    try:
        variant = Variant.model_validate({**data, "source": str(path)})
    except ValidationError as exc:
        raise validation_error(
            path, text, exc, {"": set(Variant.model_fields) - {"source"}}
        ) from None
    synthesis = variant.synthesis_prompt if variant.policy != "append" else None
    for name in (variant.extraction_prompt, synthesis):
        if name:  # every prompt file it names exists, is confined and reads, before any work
            _check_prompt(variant.prompt_path(name), path)
    return variant


def _check_prompt(prompt: Path, source: Path) -> None:
    try:
        if prompt.stat().st_size > 256 * 1024:
            raise ConfigError(f"{source}: prompt file {prompt} is larger than 256 KB")
        prompt.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{source}: prompt file {prompt} cannot be read ({exc})") from None


def load_variants(
    dirs: list[str | Path] | None = None, errors: dict[str, ConfigError] | None = None
) -> dict[str, Variant]:
    """name -> Variant, bundled first; later directories override earlier names. A file that does
    not load is left out (so it cannot break the others); its error goes into ``errors`` under the
    file's stem when given, else it is raised."""
    out: dict[str, Variant] = {}
    for folder in [BUNDLED_DIR, *(Path(d) for d in dirs or [])]:
        for path in sorted(Path(folder).glob("*.toml")):
            try:
                variant = load_variant(path)
            except ConfigError as exc:
                if errors is None:
                    raise
                errors[path.stem] = exc
                declared = _declared_name(path)  # asked for by the name it gives itself
                if declared:
                    errors.setdefault(declared, exc)
                continue
            out[variant.name] = variant
    return out


def _declared_name(path: Path) -> str | None:
    """The ``name = "..."`` a variant file that does not load gives itself, read line by line."""

    try:
        if not path.is_file():  # a pipe or a device is never opened (load_toml said why)
            return None
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh.read(1024 * 1024).splitlines():
                if line.lstrip().startswith("["):
                    return None  # past the top-level keys
                found = re.match(r"""\s*name\s*=\s*["']([^"']+)["']""", line)
                if found:
                    return found.group(1)
    except OSError:
        return None
    return None


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
    # start-up: numpy, sqlite_utils load only when this runs
    from seorap.engine.memory.reference import REFERENCE_SYSTEMS

    base, _, overrides = name.partition(":")
    broken: dict[str, ConfigError] = {}
    variants = load_variants(dirs, broken)
    if base not in variants and base in broken:
        raise broken[base]
    if base not in variants:
        known = ", ".join(list(REFERENCE_SYSTEMS) + sorted(variants))
        raise UnknownSystem(
            f"unknown system {base!r}; known: {known} (or add a variant TOML with --variants-dir)"
        )
    variant = variants[base]
    if overrides:
        changes = parse_overrides(overrides)
        allowed = set(Variant.model_fields) - {"name", "source", "description"}
        unknown = sorted(set(changes) - allowed)
        if unknown:
            raise UsageError(
                f"system {name!r}: unknown key {unknown[0]!r}; a variant override sets "
                f"one of {', '.join(sorted(allowed))}"
            )
        try:
            variant = Variant.model_validate({**variant.model_dump(), **changes, "name": name})
        except ValidationError as exc:
            first = exc.errors()[0]
            key = ".".join(str(p) for p in first["loc"])
            raise UsageError(f"system {name!r}: {key}: {first['msg']}") from None
        for key in ("extraction_prompt", "synthesis_prompt"):  # confined like the file's own
            if key in changes and changes[key]:
                variant.prompt_path(changes[key])
    return variant
