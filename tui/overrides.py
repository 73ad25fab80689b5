"""Human verdict override from the app (docs/metrics.md): ask label and reason, store through
engine.scoring.overrides (engine.scoring owns the `overrides` table; the verdict row is never edited)."""

from __future__ import annotations

import getpass
from typing import TYPE_CHECKING

from seorap.engine.errors import SeorapError, UsageError
from seorap.engine.scoring.gold import record_contest
from seorap.engine.scoring.overrides import add_override
from seorap.engine.store.lease import writer, writing
from seorap.tui.screens.prompt import PromptModal

if TYPE_CHECKING:
    from seorap.tui.app import SeorapApp
    from seorap.tui.context import AppContext

LABELS = ("YES", "PARTIAL", "NO")


def store(ctx: AppContext, verdict_id: str, label: str, reason: str) -> str | None:
    """Store one override; returns an error sentence, or None on success. The app browses read-only:
    write access (and the writer lease) is taken for this one write (a read-only file says so)."""
    try:
        if ctx.db_path is None:  # an in-memory database (tests)
            with writer(ctx.db, "override"):
                add_override(ctx.db, verdict_id, label, reason, who=getpass.getuser())
        else:
            with writing(ctx.db_path, "override") as db:
                add_override(db, verdict_id, label, reason, who=getpass.getuser())
    except (UsageError, SeorapError) as exc:
        return str(exc)
    return None


def ask_and_store(app: SeorapApp, verdict_id: str, target: str) -> None:
    def got_reason(label: str, reason: str | None) -> None:
        if reason is None:
            return
        error = store(app.ctx, verdict_id, label, reason)
        if error:
            app.notify(error, severity="warning", markup=False)
            return
        app.notify(f"override stored: {label}", markup=False)
        if hasattr(app.screen, "show"):
            app.screen.show()

    def got_label(value: str | None) -> None:
        label = (value or "").strip().upper()
        if label in LABELS:
            app.push_screen(PromptModal("Reason for the override"), lambda r: got_reason(label, r))
        elif value is not None:
            app.notify("verdict must be YES, PARTIAL or NO", severity="warning")

    app.push_screen(PromptModal(f"Override verdict ({'/'.join(LABELS)})", target), got_label)


def contest(
    ctx: AppContext, trajectory_id: str, item: str, reason: str, withdrawn: bool = False
) -> str | None:
    """Contest one expected claim or question (docs/metrics.md#gold-ledger; ``withdrawn``: withdraw
    its contest) in the ledger beside the database, under the writer lease like an override; the
    figures stored at score time for the corpus's runs are dropped, so the score cards compute them
    again from the ledger. Returns an error sentence, or None on success."""
    kw = {"who": getpass.getuser(), "withdrawn": withdrawn}
    what = "gold withdrawal" if withdrawn else "gold contest"
    try:
        if ctx.db_path is None:  # an in-memory database (tests): no ledger beside it
            with writer(ctx.db, what):
                record_contest(ctx.db, ctx.corpus, trajectory_id, item, reason, **kw)
        else:
            with writing(ctx.db_path, what) as db:
                record_contest(db, ctx.corpus, trajectory_id, item, reason, **kw)
    except (UsageError, SeorapError) as exc:
        return str(exc)
    return None


def ask_and_contest(
    app: SeorapApp, trajectory_id: str, item: str, text: str, contested: str | None = None
) -> None:
    """Ask one line of reason, then contest ``item`` of ``trajectory_id`` (``text``: what it says);
    when it is already ``contested`` ("who: reason"), offer to withdraw that contest instead."""
    withdrawn = contested is not None

    def got_reason(reason: str | None) -> None:
        if reason is None:
            return
        error = contest(app.ctx, trajectory_id, item, reason, withdrawn)
        if error:
            app.notify(error, severity="warning", markup=False)
            return
        if withdrawn:
            told = "its figures count as scored again"
            app.notify(f"withdrew the contest of {trajectory_id} {item}: {told}", markup=False)
        else:
            app.notify(
                f"contested {trajectory_id} {item}: the score cards (4) show each figure with and "
                "without it, and the ceiling",
                markup=False,
            )
        if hasattr(app.screen, "focus_item"):  # the questions view lists them again: keep the row
            app.ctx.selection.question = item
        if hasattr(app.screen, "show"):
            app.screen.show()

    shown = item_label(item)
    if withdrawn:
        question = f"Withdraw the contest of {trajectory_id} {shown} ({contested}) — why?"
    else:
        question = f"Contest the gold of {trajectory_id} {shown} — why is it wrong?"
    app.push_screen(PromptModal(question, text, check=needs_reason), got_reason)


def needs_reason(reason: str) -> str | None:
    """Refuse an empty reason in the dialog itself (the ledger keeps why, for whoever reads it)."""
    if reason.strip():
        return None
    return "type a reason in a few words, then Enter (Esc cancels)"


def item_label(item: str) -> str:
    """``s2/c4`` as the screen counts it, 1-based, with the stored id: ``state 3, claim 5
    (s2/c4)``; a question ``single/0``: ``single question 1 (single/0)``."""
    state, _, rest = item.partition("/")
    if state[:1] == "s" and state[1:].isdigit() and rest[:1] == "c" and rest[1:].isdigit():
        return f"state {int(state[1:]) + 1}, claim {int(rest[1:]) + 1} ({item})"
    if state in ("single", "compound") and rest.isdigit():
        return f"{state} question {int(rest) + 1} ({item})"
    return item
