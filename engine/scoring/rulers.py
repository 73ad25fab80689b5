"""Re-scoring diff: compare two judging setups (or two runs) verdict by verdict (SPEC §5.4).

Verdicts are matched on (trajectory, kind, source, k, item), plus the state for claims. A matched
pair is ``credited`` (score went up), ``penalised`` (went down) or ``unchanged``; an UNPARSEABLE on
either side is ``unparseable``. Every moved verdict is listed, not only the means.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def _key(v: dict) -> tuple:
    return (v["trajectory_id"], v["kind"], v["source"], v["k"], v["item"])


@dataclass
class Diff:
    credited: list[dict] = field(default_factory=list)
    penalised: list[dict] = field(default_factory=list)
    unchanged: int = 0
    unparseable: int = 0
    unmatched: int = 0

    def counts(self) -> dict[str, int]:
        return {"credited": len(self.credited), "penalised": len(self.penalised),
                "unchanged": self.unchanged, "unparseable": self.unparseable, "unmatched": self.unmatched}


def diff_verdicts(before: list[dict], after: list[dict]) -> Diff:
    old = {_key(v): v for v in before}
    out = Diff()
    for v in after:
        prev = old.pop(_key(v), None)
        if prev is None:
            out.unmatched += 1
        elif prev["score"] is None or v["score"] is None:
            out.unparseable += 1
        elif v["score"] > prev["score"]:
            out.credited.append(_moved(prev, v))
        elif v["score"] < prev["score"]:
            out.penalised.append(_moved(prev, v))
        else:
            out.unchanged += 1
    out.unmatched += len(old)
    return out


def _moved(prev: dict, v: dict) -> dict:
    return {"trajectory_id": v["trajectory_id"], "kind": v["kind"], "item": v["item"],
            "expected": v["expected"], "from": prev["label"], "to": v["label"],
            "rationale_before": prev["rationale"], "rationale_after": v["rationale"]}


def select(db, run_id: str, scoring: str, *, setup: str | None = None) -> list[dict]:
    sql = "SELECT * FROM verdicts WHERE run_id=? AND scoring=?"
    args = [run_id, scoring]
    if setup is not None:
        sql += " AND setup=?"
        args.append(setup)
    rows = list(db.query(sql, args))
    if setup is not None:  # compare modes of the same store: the setup is not part of the key
        for r in rows:
            r["source"] = "store" if r["kind"] == "claim" else r["source"]
    return rows


def full_vs_filter(db, run_id: str, scoring: str) -> Diff:
    """How the similarity filter moves the claim verdicts of one store."""
    return diff_verdicts(select(db, run_id, scoring, setup="full"), select(db, run_id, scoring, setup="filter"))
