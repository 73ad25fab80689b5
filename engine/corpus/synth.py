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
from seorap.engine.errors import UsageError
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

# Topic -> attributes: (label, paraphrase label, value templates). {n} 1-30, {m} month, {k} amount.
TOPICS: dict[str, list[tuple[str, str, list[str]]]] = {
    "데이터베이스 이전": [
        (
            "이전 대상 DB",
            "옮겨야 하는 데이터 저장소",
            ["PostgreSQL 14", "MySQL 8.0", "Oracle 19c", "MariaDB 10.6", "SQL Server 2019"],
        ),
        ("DB 용량", "데이터 규모", ["약 {n}TB"]),
        (
            "이전 목적지",
            "새로 쓰게 될 관리형 서비스",
            ["Aurora", "AlloyDB", "Cloud SQL", "Azure Database", "온프레미스 유지"],
        ),
        ("이전 완료 목표", "작업을 끝내려는 시점", ["{m}월 말"]),
    ],
    "요금제 변경": [
        ("요금제", "가입한 상품 등급", ["Standard", "Enterprise", "Premium", "Basic", "Business"]),
        ("월 요금", "매달 내는 금액", ["월 {k}만 원"]),
        ("계약 기간", "약정 길이", ["{n}개월"]),
    ],
    "채용 계획": [
        ("백엔드 채용 인원", "서버 개발자 모집 규모", ["{n}명"]),
        ("지원 마감일", "서류를 낼 수 있는 마지막 날", ["{m}월 {n}일"]),
        ("1차 면접 시기", "첫 면접이 열리는 때", ["{m}월 {n}일 주간"]),
    ],
    "세미나 준비": [
        (
            "세미나 장소",
            "행사가 열리는 곳",
            ["본사 대강당", "코엑스 회의실", "온라인 웨비나", "판교 사옥 세미나실", "역삼 센터"],
        ),
        ("세미나 날짜", "행사 날짜", ["{m}월 {n}일"]),
        ("참가 인원 제한", "받을 수 있는 최대 인원", ["{n}0명", "제한 없음"]),
    ],
    "결제 장애 대응": [
        (
            "장애 원인",
            "문제가 생긴 이유",
            ["인증서 만료", "DB 커넥션 고갈", "배포 설정 오류", "외부 PG사 장애", "디스크 가득 참"],
        ),
        (
            "영향 범위",
            "피해를 본 서비스",
            ["결제 API 전체", "카드 결제만", "정기 결제 배치", "모바일 앱 결제"],
        ),
        ("복구 시각", "정상화된 때", ["{n}시 {m}0분"]),
    ],
    "서버 구성": [
        (
            "배포 플랫폼",
            "서비스를 올릴 실행 환경",
            ["ECS Fargate", "Lambda", "EKS", "EC2 직접 운영", "Cloud Run"],
        ),
        ("월 인프라 예산", "한 달 서버 비용 한도", ["월 {k}만 원"]),
        ("운영 담당 팀", "관리를 맡은 조직", ["플랫폼팀", "SRE팀", "백엔드팀", "인프라팀"]),
    ],
    "백업 정책": [
        ("백업 주기", "복사본을 만드는 간격", ["매일 새벽", "{n}시간마다", "매주 일요일"]),
        ("백업 보관 기간", "사본을 남겨 두는 기간", ["{n}일", "{n}개월"]),
        (
            "백업 저장소",
            "사본을 두는 곳",
            ["S3 Glacier", "사내 NAS", "GCS Archive", "테이프 보관소"],
        ),
    ],
    "정기 점검": [
        ("점검 일시", "작업이 잡힌 날", ["{m}월 {n}일 새벽"]),
        ("점검 소요 시간", "서비스가 멈추는 시간", ["{n}시간", "{n}0분"]),
        ("점검 대상", "손보는 시스템", ["주문 서버", "회원 DB", "검색 클러스터", "메시지 큐"]),
    ],
}

SYLLABLES = "가나다라마바사아자하람솔빛누리온새별한결세움다온해든"
SUFFIXES = ["상사", "소프트", "물류", "테크", "랩스", "커머스", "네트웍스", "헬스"]
NAMES = [
    "정미경",
    "김도윤",
    "이서연",
    "박지훈",
    "최유진",
    "한태호",
    "오세린",
    "윤재성",
    "장하늘",
    "서민재",
]
ROLES = ["팀장", "인프라 엔지니어", "PM", "인사팀장", "CTO", "SRE", "재무 담당", "백엔드 개발자"]
DOC_TYPES = ["meeting", "slack", "email", "ticket", "wiki"]
TEAMS = ["영업팀", "디자인팀", "재무팀", "마케팅팀", "고객지원팀", "QA팀"]
FILLER = [
    "관련 자료는 공유 드라이브의 프로젝트 폴더에 올려 두었습니다.",
    "질문이 있으면 이 스레드에 남겨 주시면 확인하는 대로 답변하겠습니다.",
    "다음 주 중으로 세부 일정을 정리해서 다시 공유하겠습니다.",
    "지난번 논의에서 나온 의견들은 최대한 반영하려고 했습니다.",
    "각 팀에서는 담당자 한 명씩 정해서 알려 주시기 바랍니다.",
    "현업 부서의 요청 사항도 함께 검토해 볼 예정입니다.",
    "예상치 못한 변수가 생기면 바로 공유드리겠습니다.",
    "회의 시간이 부족해서 나머지 안건은 다음으로 미뤘습니다.",
    "참고로 이번 분기 목표와도 크게 어긋나지 않는 방향입니다.",
    "정리된 내용에 빠진 부분이 있으면 편하게 말씀해 주세요.",
    "외부 업체와의 미팅 결과도 이번 주 안에 받아 볼 수 있을 것 같습니다.",
    "작업 중에는 고객 문의가 늘 수 있으니 지원팀과 미리 이야기해 두겠습니다.",
    "문서 양식은 기존에 쓰던 템플릿을 그대로 사용했습니다.",
    "비용과 일정 사이에서 균형을 맞추는 것이 이번 결정의 핵심이었습니다.",
    "모두 바쁘신 와중에 검토해 주셔서 감사합니다.",
    "세부 항목은 아래 표와 첨부 파일을 참고해 주세요.",
]


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
    pool: dict[str, None] = {}
    for _ in range(200):
        pool.setdefault(_fill(rng.choice(templates), rng), None)
        if len(pool) >= count:
            break
    return list(pool)


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
