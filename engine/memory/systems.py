"""Systems that are not ours, by ``--system`` value (the rule: engine/memory/__init__.py).

- ``exec:COMMAND``: engine/memory/jsonl.py;
- ``mem0``: bundled (engine/memory/mem0.py, needs the ``seorap[mem0]`` extra);
- ``graphiti``: bundled (engine/memory/graphiti.py, needs the ``seorap[graphiti]`` extra);
- a name in the ``seorap.systems`` entry-point group: an installed package's factory;
- ``dotted.module:factory``: a factory imported from Python.

A factory is called with the run's :class:`Config` when it takes one argument, with none
otherwise, and must return a :class:`~engine.memory.interface.MemorySystem`.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Collection
from importlib import metadata
from typing import cast

from seorap.engine.config import Config
from seorap.engine.memory.foreign import ForeignSystem, SystemFault
from seorap.engine.memory.interface import Capabilities, MemorySystem
from seorap.engine.memory.jsonl import ExecSystem

ENTRY_POINT_GROUP = "seorap.systems"
BUNDLED = ("mem0", "graphiti")
_MODULE = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$")


def registered() -> dict[str, str]:
    """Names an installed package adds (entry point name -> ``module:attr``), plus the bundled."""
    try:
        points = {ep.name: ep.value for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    except Exception:  # noqa: BLE001 - broken package metadata: no extra names
        points = {}
    return {**{n: f"seorap.engine.memory.{n}:make_system" for n in BUNDLED}, **points}


def is_factory(name: str) -> bool:
    """``dotted.module:factory``: a colon, no ``=`` after it, a module path before it."""
    base, sep, rest = name.partition(":")
    return bool(sep) and "=" not in rest and bool(_MODULE.match(base)) and rest.isidentifier()


def resolve(name: str, config: Config, variant_names: Collection[str] = ()) -> ForeignSystem | None:
    """The foreign system ``name`` stands for, or None when it names a variant (or nothing)."""
    if name.startswith("exec:"):
        command = name[len("exec:") :].strip()
        inner: MemorySystem = ExecSystem(
            command, silence_s=config.timeout_s, line_max=config.exec_line_max
        )
    elif name in (known := registered()):
        inner = _from_factory(known[name], config, name)
    elif is_factory(name) and name.partition(":")[0] not in variant_names:
        inner = _from_factory(name, config, name)
    else:
        return None
    return ForeignSystem(name, inner, fact_text_max=config.fact_text_max)


def _from_factory(target: str, config: Config, label: str) -> MemorySystem:
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise SystemFault(f"system {label}: cannot import {module_name!r}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - the module raised while importing
        raise SystemFault(
            f"system {label}: importing {module_name!r} raised {type(exc).__name__}: {exc}"
        ) from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise SystemFault(f"system {label}: {module_name!r} has no callable {attr!r}")
    try:
        takes = len(inspect.signature(factory).parameters)
    except (TypeError, ValueError):
        takes = 0
    try:
        system = factory(config) if takes >= 1 else factory()
    except SystemFault:
        raise
    except Exception as exc:  # noqa: BLE001 - the factory raised: one sentence
        raise SystemFault(
            f"system {label}: {attr}() raised {type(exc).__name__}: {exc}".rstrip(": ")
        ) from None
    return check_system(system, label)


def check_system(system: object, label: str) -> MemorySystem:
    """The factory's product, checked against the interface (one sentence when it falls short)."""
    missing = [a for a in ("name", "capabilities", "spec", "open") if not hasattr(system, a)]
    if missing:
        raise SystemFault(
            f"system {label}: the factory returned {type(system).__name__}, which has no "
            f"{', '.join(missing)} (docs/systems.md lists what a system provides)"
        )
    checked = cast("MemorySystem", system)  # what it must have is there (checked above)
    if not isinstance(checked.capabilities, Capabilities):
        raise SystemFault(f"system {label}: its capabilities are not a Capabilities object")
    return checked
