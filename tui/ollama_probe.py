"""Is Ollama there? A short preflight for `seorap demo` (README: "with Ollama present it runs live,
without it it runs on the offline stand-ins and says so"). Runs in a worker after the first paint.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from seorap.engine.config import Config

PROBE_TIMEOUT_S = 1.0
WRITE_ROLES = ("extractor", "synthesizer")
"""The roles a live write of variant A needs from the server."""


@dataclass(frozen=True)
class OllamaProbe:
    reachable: bool
    """The server answered and has every model the write path needs."""
    host: str
    message: str
    """One sentence for the banner."""


def offline_banner(host: str, reason: str = "") -> str:
    """The fix first (a narrow terminal cuts the end of the line), then what is wrong."""
    why = f" ({reason})" if reason else ""
    return (
        f"start `ollama serve` and press 6 → a to run variants live — Ollama not reachable at "
        f"{host}{why}; showing offline reference systems (no model)"
    )


def probe(config: Config, timeout_s: float = PROBE_TIMEOUT_S) -> OllamaProbe:
    """Check the server and the write-path models with a short timeout; never raises."""
    # start-up: the model client (httpx, ollama) loads after the first paint, in the probe's worker
    from seorap.engine.errors import ModelError, ModelMissing, UsageError
    from seorap.engine.models.manage import check_models

    quick = config.with_overrides(timeout_s=timeout_s)
    try:
        statuses = check_models(quick, WRITE_ROLES)
    except (ModelError, UsageError) as exc:
        missing = isinstance(exc, ModelMissing)
        reason = str(exc).rstrip(".") if missing else ""
        return OllamaProbe(False, config.host, offline_banner(config.host, reason))
    models = ", ".join(s.model for s in statuses if s.source == "ollama") or "stand-ins"
    return OllamaProbe(
        True,
        config.host,
        f"Ollama reachable at {config.host} ({models}) — running variant A live over "
        "the corpus in the live view (6; x cancels, a resumes); the reference runs "
        "stay browsable (1)",
    )
