"""Deterministic synthetic corpora for scale tests (`seorap synth`, issue 6).

``generate(scale, seed)`` returns ``12 × scale`` valid trajectories in the bundled corpus's shape:
per block of 12, two per category C1-C6, spread over L1-L3 and the six trajectory types, 37 state
documents + 4 distractors (the two C2 trajectories carry two each), ~4-5 distinct claims per trajectory,
2-3 single questions (C2 ones paraphrased) and one compound question. Ground truth (attributes
and their values over time) is drawn first and documents are written from it with Korean template
sentences, inside the word range of their difficulty (L1 200-400, L2 400-800, L3 600-1,000 words;
``short=True`` writes ~60-word documents for quick tests).

Trajectory ``i`` is drawn from its own generator seeded with ``(seed, i)``, so the same seed gives
byte-identical files and the 1× corpus is the first 12 trajectories of the 100× corpus.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from seorap.engine.corpus import Trajectory, dump_trajectory
from seorap.engine.corpus.synth_words import (
    DOC_TYPES,
    FILLER,
    NAMES,
    ROLES,
    SUFFIXES,
    SYLLABLES,
    TEAMS,
    TOPICS,
)
from seorap.engine.errors import UsageError
from seorap.engine.normalise import canonical
from seorap.engine.outfile import write_files

# (category, difficulty, trajectory type, number of states) for each of the 12 slots of a block.
SLOTS: list[tuple[str, str, str, int]] = [
    ("C1", "L1", "stable", 3),
    ("C1", "L2", "linear-evolution", 4),
    ("C2", "L2", "scope-expansion", 3),
    ("C2", "L3", "gradual-drift", 3),
    ("C3", "L1", "retraction", 3),
    ("C3", "L3", "stable", 3),
    ("C4", "L3", "linear-evolution", 3),
    ("C4", "L2", "scope-expansion", 3),
    ("C5", "L2", "linear-evolution", 3),
    ("C5", "L1", "retraction", 3),
    ("C6", "L3", "contradiction", 3),
    ("C6", "L1", "gradual-drift", 3),
]
DISTRACTORS_PER_C2 = 2
WORDS = {"L1": (200, 400), "L2": (400, 800), "L3": (600, 1000)}
IRRELEVANT = {"L1": (0, 0), "L2": (2, 3), "L3": (4, 5)}


@dataclass
class _Attr:
    label: str
    para: str
    values: list[str]
    step: int = 0
    """Index of the current value."""
    retracted: bool = False

    @property
    def value(self) -> str:
        return "취소됨" if self.retracted else self.values[self.step]


@dataclass
class _Plan:
    """Ground truth of one trajectory, built state by state."""

    rng: random.Random
    subject: str
    topic: str
    attrs: list[_Attr]
    live: list[int] = field(default_factory=list)
    """Indices of attributes currently held (in order of creation)."""

    def claim(self, i: int) -> str:
        a = self.attrs[i]
        return f"{self.subject} {a.label}{topic_marker(a.label)} {a.value}"

    def claims(self) -> list[str]:
        return [self.claim(i) for i in self.live]


def topic_marker(word: str) -> str:
    """은 after a final consonant (batchim), 는 otherwise (non-Hangul endings take 는)."""
    last = word[-1]
    if "가" <= last <= "힣" and (ord(last) - 0xAC00) % 28:
        return "은"
    return "는"


def and_particle(word: str) -> str:
    """과 after a final consonant, 와 otherwise."""
    return "과" if topic_marker(word) == "은" else "와"


def object_particle(word: str) -> str:
    """을 after a final consonant, 를 otherwise."""
    return "을" if topic_marker(word) == "은" else "를"


def _fill(template: str, rng: random.Random) -> str:
    return template.format(n=rng.randint(1, 30), m=rng.randint(1, 12), k=rng.randint(5, 60) * 10)


def _values(templates: list[str], rng: random.Random, count: int = 4) -> list[str]:
    """Distinct values of one attribute: distinct as the validator reads them (5시간 and 300분 are
    one value in two notations, so a drift between them would be no change at all)."""
    pool: dict[str, str] = {}
    for _ in range(200):
        value = _fill(rng.choice(templates), rng)
        pool.setdefault(canonical(value), value)
        if len(pool) >= count:
            break
    return list(pool.values())


def _subject(rng: random.Random) -> str:
    return rng.choice(SYLLABLES) + rng.choice(SYLLABLES) + rng.choice(SUFFIXES)


def _plan(rng: random.Random) -> _Plan:
    topic = rng.choice(sorted(TOPICS))
    attrs = [_Attr(label, para, _values(tpl, rng)) for label, para, tpl in TOPICS[topic]]
    rng.shuffle(attrs)
    return _Plan(rng, _subject(rng), topic, attrs)


# --- state evolution -------------------------------------------------------------------------


@dataclass
class _Step:
    action: str
    doc_claims: list[str]
    stale: list[str]
    late: bool = False
    """A late-arriving older document (C4): dated before the previous state."""


def _create(plan: _Plan, kind: str) -> _Step:
    base = 2 if kind == "scope-expansion" else min(3, len(plan.attrs))
    plan.live = list(range(base))
    return _Step("create", plan.claims(), [])


def _change(plan: _Plan, i: int, action: str) -> _Step:
    old = plan.claim(i)
    a = plan.attrs[i]
    a.step = min(a.step + 1, len(a.values) - 1)
    if plan.claim(i) == old:
        return _reinforce(plan)
    return _Step(action, [plan.claim(i)] + _some_other(plan, i), [old])


def _some_other(plan: _Plan, i: int) -> list[str]:
    others = [j for j in plan.live if j != i]
    return [plan.claim(plan.rng.choice(others))] if others and plan.rng.random() < 0.5 else []


def _reinforce(plan: _Plan) -> _Step:
    claims = plan.claims()
    return _Step("reinforce", plan.rng.sample(claims, plan.rng.randint(1, len(claims))), [])


def _expand(plan: _Plan) -> _Step:
    hidden = [i for i in range(len(plan.attrs)) if i not in plan.live]
    if not hidden:
        return _change(plan, plan.live[0], "update")
    plan.live.append(hidden[0])
    return _Step("update", [plan.claim(hidden[0])] + _some_other(plan, hidden[0]), [])


def _retract(plan: _Plan) -> _Step:
    i = plan.live[-1]
    old = plan.claim(i)
    plan.attrs[i].retracted = True
    return _Step("supersede", [plan.claim(i)], [old])


def _late_memo(plan: _Plan, first: dict[int, str]) -> _Step:
    """An older document arrives: it repeats what still holds and states values since replaced."""
    still = [plan.claim(i) for i in plan.live if plan.claim(i) == first.get(i)]
    stale = [claim for i, claim in first.items() if claim != plan.claim(i)]
    doc = still[:1] if still else plan.claims()[:1]
    return _Step("reinforce", doc, stale, late=True)


def _later(plan: _Plan, kind: str, s: int, n: int) -> _Step:
    """The step of state ``s`` (1..n-1) for a trajectory type."""
    if kind == "stable":
        return _reinforce(plan)
    if kind == "linear-evolution":
        return _change(plan, plan.live[0], "supersede" if s == n - 1 else "update")
    if kind == "gradual-drift":
        return _change(plan, plan.live[(s - 1) % len(plan.live)], "update")
    if kind == "scope-expansion":
        return _expand(plan)
    if kind == "retraction":
        return _reinforce(plan) if s < n - 1 else _retract(plan)
    # contradiction: a second source says otherwise, then the conflict is settled.
    return _change(plan, plan.live[0], "conflict") if s == 1 else _expand(plan)


def _steps(plan: _Plan, category: str, kind: str, n: int) -> list[tuple[_Step, list[str]]]:
    """(step, full claims after it) for each state."""
    out = [(_create(plan, kind), plan.claims())]
    first = {i: plan.claim(i) for i in plan.live}
    for s in range(1, n):
        late = category == "C4" and s == n - 1
        step = _late_memo(plan, first) if late else _later(plan, kind, s, n)
        out.append((step, plan.claims()))
    return out


CONFIDENCE = {"create": 0.7, "update": 0.8, "supersede": 0.9, "conflict": 0.5}


def _confidence(previous: float, action: str) -> float:
    if action == "reinforce":
        return round(min(1.0, previous + 0.1), 2)
    return CONFIDENCE[action]


# --- documents --------------------------------------------------------------------------------


def _claim_sentence(claim: str, difficulty: str, rng: random.Random) -> str:
    if difficulty == "L3" and rng.random() < 0.5:
        return f"이 건은 여러 번 논의가 있었습니다. 최종적으로 정리된 내용은 {claim}입니다."
    return rng.choice([f"{claim}입니다.", f"정리하면 {claim}입니다.", f"확인 결과 {claim}입니다."])


def _irrelevant(rng: random.Random) -> str:
    team = rng.choice(TEAMS)
    return rng.choice(
        [
            f"{team} 주간 회의는 {rng.choice('월화수목금')}요일 {rng.randint(9, 17)}시로 옮겼습니다.",
            f"{team} 워크숍은 {rng.randint(1, 12)}월 {rng.randint(1, 28)}일에 열립니다.",
            f"{team} 신규 입사자는 {rng.randint(1, 5)}명입니다.",
        ]
    )


def _header(kind: str, title: str, when: str, author: str, rng: random.Random) -> str:
    if kind == "meeting":
        return f"[회의록] {title}\n일시: {when}\n작성: {author}\n\n"
    if kind == "slack":
        return f"#proj-{rng.randint(100, 999)} 채널\n{author}: 공유드립니다.\n\n"
    if kind == "email":
        return f"제목: {title}\n\n안녕하세요, {author}입니다.\n\n"
    if kind == "ticket":
        return f"[OPS-{rng.randint(1000, 9999)}] {title}\n상태: 진행 중\n담당: {author}\n\n"
    return f"# {title}\n\n최종 수정: {when} / {author}\n\n"


def _body(step: _Step, difficulty: str, rng: random.Random, short: bool) -> str:
    lines = [_claim_sentence(c, difficulty, rng) for c in step.doc_claims]
    lines += [f"현재 검토 중인 안은 {c}입니다." for c in step.stale] if step.late else []
    lines += [_irrelevant(rng) for _ in range(rng.randint(*IRRELEVANT[difficulty]))]
    lo, hi = (40, 80) if short else WORDS[difficulty]
    budget = rng.randint(lo, hi) - 12
    while sum(len(x.split()) for x in lines) < budget:
        lines.insert(rng.randint(0, len(lines)), rng.choice(FILLER))
    return "\n".join(lines)


def _document(
    doc_id: str,
    step: _Step,
    title: str,
    when: str,
    difficulty: str,
    author: dict,
    rng: random.Random,
    short: bool,
) -> dict:
    kind = rng.choice(DOC_TYPES)
    head = _header(kind, title, when, author["name"], rng)
    text = head + _body(step, difficulty, rng, short) + f"\n\n{author['name']} 드림"
    return {"id": doc_id, "type": kind, "author": author, "title": title, "text": text}


def _author(rng: random.Random) -> dict:
    return {"name": rng.choice(NAMES), "role": rng.choice(ROLES)}


# --- trajectories -----------------------------------------------------------------------------


def _dates(rng: random.Random, n: int, late: bool) -> list[str]:
    day = date(2026, 1, 1) + timedelta(days=rng.randint(0, 200))
    days = [day]
    for _ in range(n - 1):
        days.append(days[-1] + timedelta(days=rng.randint(5, 40)))
    if late and n >= 3:
        days[-1] = days[0] + (days[1] - days[0]) // 2
    return [d.isoformat() for d in days]


def _states(tid: str, plan: _Plan, slot: tuple, short: bool) -> list[dict]:
    category, difficulty, kind, n = slot
    rng = plan.rng
    dates = _dates(rng, n, category == "C4")
    authors = [_author(rng) for _ in range(n if category == "C6" else 2)]
    states, confidence = [], 0.0
    for s, (step, claims) in enumerate(_steps(plan, category, kind, n)):
        confidence = _confidence(confidence, step.action)
        title = f"{plan.subject} {plan.topic} " + ("메모" if step.late else f"{s + 1}차 공유")
        author = authors[s % len(authors)]
        doc = _document(f"{tid}-d{s}", step, title, dates[s], difficulty, author, rng, short)
        states.append(
            {
                "index": s,
                "timestamp": dates[s],
                "action": step.action,
                "confidence": confidence,
                "claims": claims,
                "docClaims": step.doc_claims,
                "staleClaims": step.stale,
                "changeReason": None
                if step.action in ("create", "reinforce")
                else "새 문서의 내용 반영",
                "document": doc,
            }
        )
    return states


def _questions(plan: _Plan, category: str, n: int) -> tuple[list[dict], list[dict]]:
    rng = plan.rng
    live = plan.live[:3]
    single = []
    for j, i in enumerate(live):
        a = plan.attrs[i]
        para = category == "C2" or (j == 0 and rng.random() < 0.3)
        label = a.para if para else a.label
        question = f"{plan.subject}의 {label}{topic_marker(label)} 무엇인가요?"
        single.append({"question": question, "answer": a.value, "state": n - 1, "paraphrase": para})
    a, b = plan.attrs[live[0]], plan.attrs[live[-1]]
    compound = {
        "question": f"{plan.subject}의 {a.label}{and_particle(a.label)} "
        f"{b.label}{object_particle(b.label)} 함께 알려 주세요.",
        "answer": f"{a.label}: {a.value}, {b.label}: {b.value}",
    }
    return single, [compound]


def _distractors(tid: str, plan: _Plan, slot: tuple, n: int, short: bool) -> list[dict]:
    category, difficulty = slot[0], slot[1]
    if category != "C2":
        return []
    rng, out = plan.rng, []
    for j in range(DISTRACTORS_PER_C2):
        attrs = [_Attr(label, para, _values(tpl, rng)) for label, para, tpl in TOPICS[plan.topic]]
        other = _Plan(rng, _subject(rng), plan.topic, attrs)
        other.live = list(range(min(2, len(other.attrs))))
        step = _Step("create", other.claims(), [])
        doc = _document(
            f"{tid}-x{j}",
            step,
            f"{other.subject} {plan.topic} 공유",
            "",
            difficulty,
            _author(rng),
            rng,
            short,
        )
        out.append({**doc, "afterState": rng.randrange(n)})
    return out


def trajectory(i: int, seed: int = 0, *, short: bool = False) -> Trajectory:
    """The ``i``-th synthetic trajectory (independent of how many are generated)."""
    rng = random.Random(f"seorap-synth:{seed}:{i}")
    slot = SLOTS[i % len(SLOTS)]
    category, difficulty, kind, n = slot
    tid = f"syn-{i:05d}-{category.lower()}"
    plan = _plan(rng)
    states = _states(tid, plan, slot, short)
    single, compound = _questions(plan, category, n)
    data = {
        "id": tid,
        "title": f"{plan.subject} {plan.topic}",
        "subject": plan.subject,
        "category": category,
        "difficulty": difficulty,
        "trajectoryType": kind,
        "extrinsicQA": compound,
        "singleQA": single,
        "states": states,
        "distractors": _distractors(tid, plan, slot, n, short),
    }
    return Trajectory.model_validate(data)


def generate(scale: int, seed: int = 0, *, short: bool = False) -> list[Trajectory]:
    """``12 × scale`` trajectories."""
    if scale < 1:
        raise UsageError("scale must be at least 1")
    return [trajectory(i, seed, short=short) for i in range(len(SLOTS) * scale)]


def write_corpus(out: str | Path, scale: int, seed: int = 0, *, short: bool = False) -> list[Path]:
    """Write one JSON file per trajectory into ``out`` (created if missing); return the paths. Each
    file is whole or absent (:func:`engine.outfile.write_files`; OutputError says why not)."""
    files = ((f"{t.id}.json", dump_trajectory(t)) for t in generate(scale, seed, short=short))
    return write_files(out, files)
