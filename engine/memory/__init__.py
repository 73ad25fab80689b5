"""The memory system under test and the reference systems (docs/design.md#the-memory-system).

A system is looked up by name: ``get_system("A", config)``; ``list_systems()`` names them all.
Reference systems (oracle, oracle-stale, oracle-merged, raw) need no model. LLM variants are data:
``engine/variants/*.toml`` plus prompt files, and any ``*.toml`` under the directories given by
``--variants-dir``. A name may carry overrides of the variant's policy,
``A:guard=merge,confidence=authors``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from seorap.engine.config import Config
from seorap.engine.errors import UnknownSystem  # noqa: F401 (re-exported)
from seorap.engine.memory.reference import REFERENCE_SYSTEMS, ReferenceSystem

if TYPE_CHECKING:
    from seorap.engine.memory.llm import LLMSystem


def list_systems(variants_dirs: list[str | Path] | None = None) -> list[str]:
    from seorap.engine.memory.variants import load_variants

    return list(REFERENCE_SYSTEMS) + sorted(load_variants(variants_dirs))


def get_system(
    name: str, config: Config | None = None, variants_dirs: list[str | Path] | None = None
) -> ReferenceSystem | LLMSystem:
    """The system called ``name`` (a reference system or a variant, with optional overrides)."""
    if name in REFERENCE_SYSTEMS:
        return REFERENCE_SYSTEMS[name]
    from seorap.engine.memory.llm import LLMSystem
    from seorap.engine.memory.variants import resolve_variant

    return LLMSystem(resolve_variant(name, list(variants_dirs or [])))
