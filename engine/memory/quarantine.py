"""Quarantine: extracted observations that are not synthesised into facts (docs/models.md,
"Quarantine").

An observation is quarantined when it is

- a **member of a stopped loop** (engine/models/loops.py :func:`loop_members`): the extraction was
  stopped because it repeated itself, and this kept item is written more than once in it, or is
  one of several items of one template with a changing number or name; or
- **ungrounded** in its document (engine/memory/grounding.py): a time, date, number or name the
  document does not contain, or none of its words.

A quarantined observation is stored with its reason (``observations.quarantine``), counted in the
run's accounting (``quarantined``), shown in the stepper's operation log and followed by the claim
journey; it never reaches the synthesizer. ``keep_ungrounded`` in the configuration (``seorap run
--keep-ungrounded``) turns the quarantine off for a run, to see what the model would have stored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seorap.engine.memory.grounding import ungrounded
from seorap.engine.memory.schemas import Extraction
from seorap.engine.models.loops import loop_members
from seorap.engine.models.replies import salvage_items

if TYPE_CHECKING:
    from seorap.engine.models.results import Structured
    from seorap.engine.scoring.glossary import Glossary


def reasons(
    extraction: Structured[Extraction],
    texts: list[str],
    document: str,
    date: str | None = None,
    glossary: Glossary | None = None,
) -> list[str]:
    """Why each of ``texts`` (the extraction's kept observations, in order) is quarantined; ""
    for one that is not; both reasons, a loop member's first, when both hold."""
    loops: dict[int, str] = {}
    if extraction.loop_kind:
        written, _, _ = salvage_items(extraction.raw, Extraction)
        every = [o.text.strip() for o in written.observations] if written else []
        loops = loop_members(texts, every or texts)
    out = []
    for i, text in enumerate(texts):
        why = ungrounded(text, document, date, glossary)
        parts = [loops.get(i, ""), f"ungrounded: {why}" if why else ""]
        out.append("; ".join(p for p in parts if p))
    return out
