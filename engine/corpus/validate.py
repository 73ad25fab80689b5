"""`seorap validate`: every problem of a corpus, each with its file and JSON path (docs/corpus-format.md).

Both kinds of problem are reported in one pass. The schema check (pydantic) reports types, enums
and missing fields. The semantic check covers what a schema cannot: index order, claim bookkeeping,
references in range, ids unique across the corpus, non-empty documents; it also runs on a file whose
schema check failed (on the values it can read), so a user fixes everything in one round trip.
Input is bounded: a file above MAX_FILE_BYTES or nested deeper than Python's parser allows is one
problem, not a crash.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from seorap.engine import normalise
from seorap.engine.corpus.trajectory import Trajectory
from seorap.engine.errors import why
from seorap.engine.safepath import name_problem
from seorap.engine.untrusted import visible

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails


@dataclass(frozen=True)
class Problem:
    file: str
    location: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.location}: {self.message}"


@dataclass
class ValidationReport:
    trajectories: list[Trajectory] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def json_path(loc: tuple) -> str:
    """('states', 1, 'claims') -> 'states[1].claims'."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "$"


def validate_files(files: list[Path]) -> ValidationReport:
    report = ValidationReport()
    if not files:
        report.problems.append(Problem("(corpus)", "$", "no *.json trajectory files found"))
        return report
    seen_traj: dict[str, str] = {}
    seen_docs: dict[str, str] = {}
    for path in files:
        name = str(path)
        trajectory = _parse(path, report)
        if trajectory is None:
            continue
        problems = check_trajectory(trajectory)
        problems += check_names(trajectory)
        problems += _check_unique(trajectory, name, seen_traj, seen_docs)
        report.problems += [Problem(name, loc, msg) for loc, msg in problems]
        report.trajectories.append(trajectory)
        report.files[trajectory.id] = path
    return report


def corpus_files(path: Path) -> list[Path]:
    """The trajectory files a corpus path names: a folder's ``*.json`` files, or the one file."""
    path = Path(path)
    if (
        path.is_dir()
    ):  # every entry, links and non-files too: validating says what is wrong with each
        return sorted(path.glob("*.json"))
    return [path]


def validate_path(path: str | Path) -> ValidationReport:
    path = Path(path)
    if not path.exists():
        return ValidationReport(problems=[Problem(str(path), "$", "no such file or folder")])
    return validate_files(corpus_files(path))


MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest trajectory file read (the bundled ones are under 100 kB)."""


def read_json(path: Path) -> Any:  # a JSON value, whatever the file holds
    """The file's JSON value; raises ValueError (size, nesting), UnicodeDecodeError or
    json.JSONDecodeError. Never reads more than MAX_FILE_BYTES + 1 bytes (``/dev/zero`` included)."""
    _check_kind(path)
    with open(path, "rb") as fh:
        raw = fh.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(
            f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; a trajectory file is far "
            "smaller (split the corpus into one file per trajectory)"
        )
    try:
        return json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ValueError("JSON nested too deeply to be a trajectory") from None


def _check_kind(path: Path) -> None:
    """Only a regular file is read (a device or a pipe could block or never end): ValueError naming
    what the path is instead — a link that loops or points at nothing, a folder, a device."""
    try:
        info = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ValueError(
                "a symbolic link that loops (it leads back to itself); not read"
            ) from None
        if exc.errno == errno.ENOENT and os.path.islink(path):
            target = os.readlink(path)
            raise ValueError(
                f"a symbolic link to {target!r}, which does not exist; not read"
            ) from None
        raise
    if stat.S_ISDIR(info.st_mode):
        raise ValueError("a folder, not a trajectory file; not read")
    if not stat.S_ISREG(info.st_mode):
        kind = (
            "a device"
            if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
            else "a pipe or socket"
        )
        via = " (through a symbolic link)" if os.path.islink(path) else ""
        raise ValueError(f"{kind}{via}, not a regular file; not read")


def _parse(path: Path, report: ValidationReport) -> Trajectory | None:
    name = str(path)
    try:
        data = read_json(path)
    except OSError as exc:
        report.problems.append(Problem(name, "$", f"cannot read: {why(exc)}"))
        return None
    except UnicodeDecodeError as exc:
        report.problems.append(Problem(name, f"byte {exc.start}", "not UTF-8 text"))
        return None
    except json.JSONDecodeError as exc:
        report.problems.append(
            Problem(name, f"{exc.lineno}:{exc.colno}", f"JSON syntax: {exc.msg}")
        )
        return None
    except ValueError as exc:
        report.problems.append(Problem(name, "$", str(exc)))
        return None
    if not isinstance(data, dict):
        report.problems.append(Problem(name, "$", "a trajectory must be a JSON object"))
        return None
    try:
        return Trajectory.model_validate(data)
    except ValidationError as exc:
        schema = [Problem(name, json_path(error["loc"]), _message(error)) for error in exc.errors()]
    except RecursionError:
        report.problems.append(Problem(name, "$", "JSON nested too deeply to be a trajectory"))
        return None
    report.problems += schema
    # the semantic checks too, on what can be read, so nothing waits for a second round trip
    seen = {p.location for p in schema}
    lenient = _lenient(data)
    report.problems += [
        Problem(name, loc, msg)
        for loc, msg in check_trajectory(lenient) + check_names(lenient)
        if loc not in seen
    ]
    return None


def _get(data: object, key: str, kind: type, default: Any = None) -> Any:
    value = data.get(key) if isinstance(data, dict) else None
    return (
        value
        if isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        else default
    )


def _lenient(data: dict) -> SimpleNamespace:
    """The parts of a trajectory the semantic checks read, from raw JSON: a value of the wrong type
    becomes None (the schema check reported it) and its checks are skipped."""

    def strings(d: object, key: str) -> list[str]:
        return [c for c in _get(d, key, list, []) if isinstance(c, str)]

    def doc(d: object) -> SimpleNamespace:
        return SimpleNamespace(text=_get(d, "text", str), id=_get(d, "id", str))

    states = [
        SimpleNamespace(
            index=_get(s, "index", int),
            action=_get(s, "action", str),
            confidence=s.get("confidence") if isinstance(s, dict) else None,
            claims=strings(s, "claims"),
            doc_claims=strings(s, "docClaims"),
            stale_claims=strings(s, "staleClaims"),
            document=doc(_get(s, "document", dict, {})),
        )
        for s in _get(data, "states", list, [])
    ]
    qa = [
        SimpleNamespace(
            state=_get(q, "state", int),
            question=_get(q, "question", str),
            answer=_get(q, "answer", str),
            excluded=_get(q, "excluded", str),
        )
        for q in _get(data, "singleQA", list, [])
    ]
    xqa = [
        SimpleNamespace(question=_get(q, "question", str), answer=_get(q, "answer", str))
        for q in _get(data, "extrinsicQA", list, [])
    ]
    distractors = [
        SimpleNamespace(
            after_state=_get(d, "afterState", int), text=_get(d, "text", str), id=_get(d, "id", str)
        )
        for d in _get(data, "distractors", list, [])
    ]
    asked = {k: v for k, v in _get(data, "slotQuestions", dict, {}).items() if isinstance(v, str)}
    return SimpleNamespace(
        id=_get(data, "id", str),
        states=states,
        single_qa=qa,
        extrinsic_qa=xqa,
        distractors=distractors,
        slot_questions=asked,
        source=_get(data, "source", dict),
        category=_get(data, "category", str),
        difficulty=_get(data, "difficulty", str),
        trajectory_type=_get(data, "trajectoryType", str),
    )


def _message(error: ErrorDetails) -> str:
    if error["type"] == "missing":
        return "required field is missing"
    return error["msg"]


def check_trajectory(t: Any) -> list[tuple[str, str]]:
    """Semantic checks on a parsed trajectory: (location, message) pairs."""
    problems: list[tuple[str, str]] = []
    n = len(t.states)
    if n == 0:
        problems.append(("states", "a trajectory needs at least one state"))
    imported = getattr(t, "source", None) is not None  # claims are optional there
    if not imported:
        problems += _required(t)
    for i, state in enumerate(t.states):
        problems += _check_state(i, state, imported)
    for j, qa in enumerate(t.single_qa):
        if qa.state is not None and not 0 <= qa.state < n:
            problems.append(
                (f"singleQA[{j}].state", f"out of range: {qa.state} (states 0..{n - 1})")
            )
        answer = (
            "-" if getattr(qa, "excluded", None) else qa.answer
        )  # an excluded item may lack one
        if _blank(qa.question) or _blank(answer):
            problems.append((f"singleQA[{j}]", "question and answer must be non-empty"))
    for j, compound in enumerate(t.extrinsic_qa):
        if _blank(compound.question) or _blank(compound.answer):
            problems.append((f"extrinsicQA[{j}]", "question and answer must be non-empty"))
    for j, d in enumerate(t.distractors):
        if d.after_state is not None and not 0 <= d.after_state < n:
            problems.append(
                (
                    f"distractors[{j}].afterState",
                    f"out of range: {d.after_state} (states 0..{n - 1})",
                )
            )
        if d.text is not None and not d.text.strip():
            problems.append((f"distractors[{j}].text", "document text is empty"))
    return problems + _check_slot_questions(t)


def _check_slot_questions(t: Any) -> list[tuple[str, str]]:
    """Each ``slotQuestions`` entry asks about a claim of the trajectory without stating any of
    the claim's values (engine/scoring/slot_questions.py): read-time asks about the slot."""
    # start-up: `seorap --help` loads no numpy, sqlite_utils (the scoring package loads them)
    from seorap.engine.scoring import slot_questions

    problems = []
    claims = {c for state in t.states for c in state.claims}
    for claim, question in (getattr(t, "slot_questions", None) or {}).items():
        where = f"slotQuestions[{claim!r}]"
        if claim not in claims:
            problems.append((where, "not a claim of any state of this trajectory"))
        elif _blank(question):
            problems.append((where, "the question is empty"))
        elif said := slot_questions.leaks(claim, question):
            problems.append((where, f"the question states the claim's value(s): {', '.join(said)}"))
    return problems


def _check_state(i: int, state: Any, imported: bool = False) -> list[tuple[str, str]]:
    """One state: its place (index, first action), its document text and its claims."""
    where = f"states[{i}]"
    problems: list[tuple[str, str]] = []
    if state.index is not None and state.index != i:
        problems.append(
            (f"{where}.index", f"expected {i} (states are in arrival order), got {state.index}")
        )
    if i == 0 and state.action is not None and state.action != "create":
        problems.append(
            (f"{where}.action", f"the first state must be 'create', got {state.action!r}")
        )
    problems += _check_claims(where, state, imported)
    if state.document.text is not None and not state.document.text.strip():
        problems.append((f"{where}.document.text", "document text is empty"))
    return problems


def _check_claims(where: str, state: Any, imported: bool = False) -> list[tuple[str, str]]:
    """A state's claims: at least one, no duplicate; its docClaims among them, its staleClaims
    not. Values are compared in one notation (engine.normalise.canonical): "2026. 3. 5." is
    "2026년 3월 5일", "1.5TB" is "1,500GB"."""
    problems: list[tuple[str, str]] = []
    claims = set(state.claims)
    written = {normalise.canonical(c): c for c in state.claims}
    if not state.claims and not imported:
        problems.append((f"{where}.claims", "a state needs at least one expected claim"))
    for j, claim in enumerate(state.doc_claims):
        if claim not in claims:
            problems.append((f"{where}.docClaims[{j}]", f"not in this state's claims: {claim!r}"))
    for j, claim in enumerate(state.stale_claims):
        same = written.get(normalise.canonical(claim))
        if same is not None:
            said = "" if same == claim else f" (written there as {same!r})"
            problems.append(
                (f"{where}.staleClaims[{j}]", f"still in this state's claims: {claim!r}{said}")
            )
    groups: dict[str, list[str]] = {}
    for c in state.claims:
        groups.setdefault(normalise.canonical(c), []).append(c)
    for group in groups.values():
        if len(group) > 1:
            forms = dict.fromkeys(group)
            also = (
                ""
                if len(forms) == 1
                else f" (also written {', '.join(map(repr, list(forms)[1:]))})"
            )
            problems.append((f"{where}.claims", f"duplicate claim: {group[0]!r}{also}"))
    return problems


def _blank(value: object) -> bool:
    return isinstance(value, str) and not value.strip()


def check_names(t: Any) -> list[tuple[str, str]]:
    """Ids are names, never paths (engine/safepath.py): the trajectory's and every document's id
    must not be empty, ``.``, ``..``, hold a separator or a control character."""
    ids = [("id", "trajectory id", t.id)]
    ids += [
        (f"states[{i}].document.id", "document id", s.document.id) for i, s in enumerate(t.states)
    ]
    ids += [(f"distractors[{j}].id", "document id", d.id) for j, d in enumerate(t.distractors)]
    problems = []
    for loc, what, value in ids:
        problem = name_problem(value) if value is not None else None  # None: the schema said
        if problem is not None:
            problems.append((loc, f"the {what} {visible(repr(value))} cannot be a name: {problem}"))
    return problems


def _check_unique(
    t: Trajectory, name: str, seen_traj: dict, seen_docs: dict
) -> list[tuple[str, str]]:
    problems = []
    if t.id in seen_traj:
        problems.append(("id", f"trajectory id {t.id!r} already used in {seen_traj[t.id]}"))
    seen_traj.setdefault(t.id, name)
    docs = [(f"states[{i}].document.id", s.document.id) for i, s in enumerate(t.states)]
    docs += [(f"distractors[{j}].id", d.id) for j, d in enumerate(t.distractors)]
    for loc, doc_id in docs:
        if doc_id in seen_docs:
            problems.append((loc, f"document id {doc_id!r} already used ({seen_docs[doc_id]})"))
        seen_docs.setdefault(doc_id, f"{name}: {loc}")
    return problems


def summary(trajectories: list[Trajectory]) -> dict:
    """Counts of a (valid) corpus: what `seorap validate --json` prints."""
    docs = [s.document for t in trajectories for s in t.states]
    words: dict[str, list[int]] = {}
    for t in trajectories:
        for d in [s.document for s in t.states] + list(t.distractors):
            words.setdefault(t.difficulty or "imported", []).append(d.word_count)
    return {
        "trajectories": len(trajectories),
        "states": sum(len(t.states) for t in trajectories),
        "documents": len(docs),
        "distractors": sum(len(t.distractors) for t in trajectories),
        "claims": sum(len(t.all_claims()) for t in trajectories),
        "single_questions": sum(len(t.single_qa) for t in trajectories),
        "paraphrase_questions": sum(q.paraphrase for t in trajectories for q in t.single_qa),
        "compound_questions": sum(len(t.extrinsic_qa) for t in trajectories),
        "by_category": _counts(t.category for t in trajectories),
        "by_difficulty": _counts(t.difficulty for t in trajectories),
        "by_type": _counts(t.trajectory_type for t in trajectories),
        "by_doc_type": dict(sorted(Counter(d.type for d in docs).items())),
        "words": {
            level: {"min": min(v), "median": statistics.median(v), "max": max(v)}
            for level, v in sorted(words.items())
        },
    }


def _counts(values: Iterable[str | None]) -> dict[str, int]:
    """Counts by label, sorted; an imported trajectory has none (left out)."""
    return dict(sorted(Counter(v for v in values if v is not None).items()))


def _required(t: Any) -> list[tuple[str, str]]:
    """What only an imported set may leave out: category, difficulty, trajectoryType, and each
    state's action and confidence."""
    missing = "required field is missing (only an imported set, with `source`, may leave it out)"
    fields = [("category", "category"), ("difficulty", "difficulty")]
    fields.append(("trajectoryType", "trajectory_type"))
    problems = [(name, missing) for name, attr in fields if getattr(t, attr) is None]
    for i, state in enumerate(t.states):
        problems += [
            (f"states[{i}].{name}", missing)
            for name in ("action", "confidence")
            if getattr(state, name) is None
        ]
    return problems
