"""The memory system under test and the reference systems (docs/design.md#the-memory-system).

A system is looked up by name: ``get_system("A", config)``; ``list_systems()`` names them all.
Reference systems (oracle, oracle-stale, oracle-merged, raw) need no model. LLM variants are data:
``engine/variants/*.toml`` plus prompt files, and any ``*.toml`` under the directories given by
``--variants-dir``. A name may carry overrides of the variant's policy,
``A:guard=merge,confidence=authors``. Any other system comes in through engine/memory/interface.py
(docs/systems.md); :func:`get_system` reads a ``--system`` value by this rule:

1. ``exec:COMMAND`` -> a program speaking JSON lines (engine/memory/jsonl.py);
2. a registered name -> that system: a reference system, a bundled one (``mem0``), a name an
   installed package adds through the ``seorap.systems`` entry-point group, or a variant;
3. ``dotted.module:factory`` with no ``=`` after the colon -> ``factory()`` (or
   ``factory(config)``) imported from Python;
4. ``NAME:key=value,...`` -> the variant NAME with policy overrides.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from seorap.engine.config import Config
from seorap.engine.errors import UnknownSystem as UnknownSystem  # re-exported
from seorap.engine.memory.names import REFERENCE_DESCRIPTIONS

if TYPE_CHECKING:
    from seorap.engine.memory.foreign import ForeignSystem
    from seorap.engine.memory.llm import LLMSystem
    from seorap.engine.memory.reference import ReferenceSystem

    System: TypeAlias = ReferenceSystem | LLMSystem | ForeignSystem
    """What :func:`get_system` returns: every kind of system a run writes with."""


def list_systems(variants_dirs: list[str | Path] | None = None) -> list[str]:
    # import cycle: the modules named import this package
    from seorap.engine.memory.systems import registered
    from seorap.engine.memory.variants import load_variants

    return (
        list(REFERENCE_DESCRIPTIONS) + sorted(load_variants(variants_dirs)) + sorted(registered())
    )


def get_system(
    name: str, config: Config | None = None, variants_dirs: list[str | Path] | None = None
) -> ReferenceSystem | LLMSystem | ForeignSystem:
    """The system ``name`` stands for, by the rule in this module's docstring."""
    if name in REFERENCE_DESCRIPTIONS:
        # here, not at the top: the systems need the store, which `seorap --help` must not load
        # import cycle: the modules named import this package
        from seorap.engine.memory.reference import REFERENCE_SYSTEMS

        return REFERENCE_SYSTEMS[name]
    # import cycle: the modules named import this package
    from seorap.engine.memory import systems
    from seorap.engine.memory.variants import load_variants

    names = load_variants(variants_dirs) if systems.is_factory(name) else {}
    foreign = systems.resolve(name, config or Config(), names)
    if foreign is not None:
        return foreign
    # import cycle: the modules named import this package
    from seorap.engine.memory.llm import LLMSystem
    from seorap.engine.memory.variants import resolve_variant

    return LLMSystem(resolve_variant(name, list(variants_dirs or [])))
