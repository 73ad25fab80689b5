"""The fresh Korean judge probes (tests/data/judge_probes): each set written from the judge issue's
class list alone before a round of rule work, never edited since (their digests are checked).

- ``fresh_probes.jsonl`` (86): written before the ``lexical-4`` rule work.
- ``fresh_probes_2.jsonl`` (109): written before the ``lexical-5`` rule work, in other settings.

Since ``lexical-6`` at least 85 % of each set's verdicts must also be exactly right (YES, PARTIAL
or NO as the probe says), from the rules alone.

The lexical judge must credit no wrong answer YES (a NO or PARTIAL probe graded YES), from its rules
alone and with the probes' glossary, and credit at least 90 % of the right answers (YES probes) YES
with the glossary. ``glossary.tsv`` was written after seeing the misses (aliases are data, not
rules): the figures with it are labelled so. The confusion table and per-class figures are printed
(``pytest -s``)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("kiwipiepy")

from seorap.engine.scoring import glossary  # noqa: E402
from seorap.engine.scoring.judges import LexicalJudge  # noqa: E402

DATA = Path(__file__).parent / "data" / "judge_probes"
LABELS = ("YES", "PARTIAL", "NO")
SETS = ("fresh_probes", "fresh_probes_2")


def _probes(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text().splitlines()]


def _date(text: str | None) -> dt.date | None:
    return dt.date.fromisoformat(text) if text else None


def grade_all(name: str, *, with_glossary: bool = False) -> list[tuple[dict, str, str]]:
    judge = LexicalJudge(glossary=glossary.load(DATA / "glossary.tsv") if with_glossary else None)
    out = []
    for p in _probes(name):
        v = judge.grade_answer(
            p.get("question") or "",
            p["expected"],
            p["answer"],
            expected_date=_date(p.get("expected_date")),
            answer_date=_date(p.get("answer_date")),
        )
        out.append((p, v.label, v.rationale))
    return out


def table(graded: list[tuple[dict, str, str]]) -> str:
    confusion = Counter((p["verdict"], label) for p, label, _ in graded)
    lines = ["verdict \\ judge  " + "  ".join(f"{x:>7}" for x in LABELS)]
    for want in LABELS:
        lines.append(f"{want:>15}  " + "  ".join(f"{confusion[want, g]:>7}" for g in LABELS))
    classes = sorted({p["class"] for p, _, _ in graded})
    lines.append("class: exact / n, wrong YES, right YES / right")
    for c in classes:
        rows = [(p, g) for p, g, _ in graded if p["class"] == c]
        exact = sum(p["verdict"] == g for p, g in rows)
        wrong_yes = sum(p["verdict"] != "YES" and g == "YES" for p, g in rows)
        right = [g for p, g in rows if p["verdict"] == "YES"]
        lines.append(
            f"  {c:<22} {exact}/{len(rows)}  wrong YES {wrong_yes}  "
            f"right YES {right.count('YES')}/{len(right)}"
        )
    return "\n".join(lines)


@pytest.mark.parametrize(
    "name",
    [
        *SETS,
        "sealed_probes_3",
        "sealed_probes_4",
        "sealed_probes_5",
        "sealed_probes_6",
        "sealed_probes_7",
        "sealed_probes_8",
        "sealed_probes_9",
        "sealed_probes_10",
        "sealed_probes_11",
        "sealed_probes_12",
        "sealed_probes_13",
        "sealed_probes_14",
        "sealed_probes_15",
        "sealed_probes_16",
        "sealed_probes_17",
        "sealed_probes_18",
        "sealed_probes_19",
        "sealed_probes_20",
        "sealed_probes_21",
        "sealed_probes_22",
        "sealed_probes_23",
        "sealed_probes_24",
        "sealed_probes_25",
        "sealed_probes_26",
        "sealed_probes_27",
        "sealed_probes_28",
        "sealed_probes_29",
        "sealed_probes_30",
        "sealed_probes_31",
        "sealed_probes_32",
        "sealed_probes_33",
        "sealed_probes_34",
        "sealed_probes_35",
        "sealed_probes_36",
        "sealed_probes_37",
        "sealed_probes_38",
        "sealed_probes_39",
        "sealed_probes_40",
        "sealed_probes_41",
        "sealed_probes_42",
        "sealed_probes_43",
        "sealed_probes_44",
        "sealed_probes_45",
        "sealed_probes_46",
    ],
)
def test_probe_file_is_unchanged(name):
    # the sealed sets too: each was graded once as committed, its digest committed before
    digest = (DATA / f"{name}.sha256").read_text().split()[0]
    assert hashlib.sha256((DATA / f"{name}.jsonl").read_bytes()).hexdigest() == digest
    assert len(_probes(name)) >= 60


BEFORE = {
    "fresh_probes": {"wrong_yes": 9, "right_yes": 9},
    "fresh_probes_2": {"wrong_yes": 5, "right_yes": 28},
}
"""Each set graded before the rule work it was written for: fresh_probes by lexical-3 (9 of 51
wrong answers YES, 9 of 35 right answers YES), fresh_probes_2 by lexical-4 (5 of 66 wrong answers
YES, 28 of 43 right answers YES)."""
FLOOR = {"fresh_probes": 29, "fresh_probes_2": 37}
"""lexical-6 from its rules alone (no glossary): 29 of 35 (83 %) and 37 of 43 (86 %) right answers
YES. A ratchet, so no later change loses one. lexical-5 had 38 of 43 on the second set: full
accounting (lexical-6) grades fq-075 PARTIAL — it adds 본관 and 대강당 to the expected 3층, words
nothing accounts for. The other misses are aliases (a transliteration, an abbreviation, a Hanja
form), a word paraphrased around the value (두 번째 안 for 2안) and two answers that state the value
only by implication."""
WITH_GLOSSARY = {"fresh_probes": 32, "fresh_probes_2": 42}
"""... and with the probes' glossary: 32 of 35 (91 %), 42 of 43."""
RIGHT = {"fresh_probes": 74, "fresh_probes_2": 100}
"""lexical-7, rules alone: verdicts equal to the probe's (YES, PARTIAL or NO), 74 of 86 (86 %) and
100 of 109 (92 %); lexical-6 had 75 and 96 (lexical-7 reads a hedge over every expected value as
PARTIAL, as the second set's writer did; the first set's writer wanted NO for one of them, fp-004),
lexical-5 71 and 92. The issue's bar is 85 % on each set."""

_GRADED: dict[tuple[str, bool], list[tuple[dict, str, str]]] = {}


def graded(name: str, with_glossary: bool = False) -> list[tuple[dict, str, str]]:
    key = (name, with_glossary)
    if key not in _GRADED:
        out = _GRADED[key] = grade_all(name, with_glossary=with_glossary)
        print(f"\n{name} ({'with' if with_glossary else 'no'} glossary)\n" + table(out))
        for p, label, why in out:
            if p["verdict"] != label:
                print(f"{p['id']} {p['class']}: want {p['verdict']} got {label}: {why}")
    return _GRADED[key]


SEALED = {
    "sealed_probes_3": 112,
    "sealed_probes_4": 115,
    "sealed_probes_5": 117,
    "sealed_probes_6": 105,
    "sealed_probes_7": 114,
    "sealed_probes_8": 97,
    "sealed_probes_9": 96,
    "sealed_probes_10": 111,
    "sealed_probes_11": 113,
    "sealed_probes_12": 89,
    "sealed_probes_13": 93,
    "sealed_probes_14": 101,
    "sealed_probes_15": 115,
    "sealed_probes_16": 108,
    "sealed_probes_17": 117,
    "sealed_probes_18": 106,
    "sealed_probes_19": 110,
    "sealed_probes_20": 104,
    "sealed_probes_21": 108,
    "sealed_probes_22": 101,
    "sealed_probes_23": 107,
    "sealed_probes_24": 78,
    "sealed_probes_25": 87,
    "sealed_probes_26": 106,
    "sealed_probes_27": 83,
    "sealed_probes_28": 93,
    "sealed_probes_29": 92,
    "sealed_probes_30": 90,
    "sealed_probes_31": 101,
    "sealed_probes_32": 79,
    "sealed_probes_33": 73,
    "sealed_probes_34": 81,
    "sealed_probes_35": 82,
    "sealed_probes_36": 80,
    "sealed_probes_37": 88,
    "sealed_probes_38": 87,
    "sealed_probes_39": 76,
    "sealed_probes_40": 82,
    "sealed_probes_41": 86,
    "sealed_probes_42": 89,
    "sealed_probes_43": 105,
    "sealed_probes_44": 100,
    "sealed_probes_45": 93,
    "sealed_probes_46": 81,
}
"""The sealed sets, each graded once when its rules were final (the third by lexical-6, 89 of 129
and 4 wrong answers YES; the fourth by lexical-7, 91 of 155; the fifth by lexical-8, 79 of 160;
the sixth by lexical-9, 80 of 160 and 2 wrong answers YES; the seventh by lexical-10, 78 of 160 and
no wrong answer YES, as lexical-9 also grades it; the eighth by lexical-11, 75 of 160 and 2 wrong
answers YES, lexical-10 76 and the same 2), then kept as sets the rules may be measured on: today's
verdicts right, from the rules alone. Far below the 85 % bar (docs/metrics.md says why); a
ratchet, as FLOOR. The third lost one (sp-089) when a clause about another slot stopped counting
as accounted for without a question (lexical-9, after the sixth set's grading); the sixth gained
four with lexical-10 (units spelt out, reported speech); every set gained with lexical-11 (a
weekday read with its date, the question's words and a dropped topic not asked again), the
seventh most (it was written for). The eighth gained one with lexical-12, when values swapped between
the owners of a list became a wrong value (s8-070, fixed at its cause after the grading). Every
set gained with lexical-13 (values alone claim no polarity, a negation the
question carries, verbs cut in two read whole and more meaning classes, an owner before the topic
not asked again): 2, 2, 3, 4, 4 and 4 from the third to the eighth. The ninth was graded once by
lexical-13 (74 of 160, one wrong answer YES: s9-109, an answer taking the owner the question wrongly
asked about, fixed at its cause by lexical-14; lexical-12 graded it 76). The tenth was graded once
by lexical-14 (82 of 160, one wrong answer YES: s10-003, the asked matter said of another owner
beside the right answer, fixed at its cause by lexical-15). The ninth and tenth gained with
lexical-16 and 17 (a range's unit, a rate's denominator, a date's slash, a halt said by a verb).
The eleventh was graded once by lexical-16 (85 of 160, two wrong answers YES; lexical-14 the same
85 and the same two), then 87 with lexical-17 and 88 with lexical-18 (a value taken from another
clause in place of its own, s11-141, which the tenth also gained, s10-060). The twelfth was graded
once by lexical-18 (70 of 160, no wrong answer YES; lexical-17 69). lexical-19 (roles swapped, an
item set apart listed in, acts of opposite meaning, a matter still open, sentences of courtesy, a
question's false premise, 잡혀 있다, 킬로 and degrees) turned the eighth's and the eleventh's last
wrong YES to NO, wrong answers graded PARTIAL to NO and right ones to YES: 109, 108, 102, 95, 101,
86, 79, 94, 93 and 72 from the third to the twelfth. The thirteenth was graded once by lexical-19
(70 of 160, two wrong answers YES; lexical-18 the same 70, the same two and not one verdict
different). lexical-20 (a question that picks one clause, a vague date read from its own text's
date, news about another slot, an opposite act in the clause answered): 103, 80, 96, 77 and 75 for
the seventh, ninth, tenth, twelfth and thirteenth (not blind), no wrong answer YES. The fourteenth
was graded once by lexical-20 (86 of 160, no wrong answer YES; lexical-19 the same 86, lexical-18
82), then 88 with lexical-21 (a month stated by a date in it, native numerals before a unit; not
blind). The fifteenth was graded once by lexical-21 (99 of 160, one wrong answer YES, s15-157;
lexical-20 98, lexical-19 96, lexical-18 94, each with the same wrong YES), then 100 with
lexical-22 (a value of one owner said of another, by their topics; not blind). The sixteenth was
graded once by lexical-22 (93 of 160, two wrong answers YES: s16-079, a discount for siblings added
to the right fee, which a question lets an answer add as another slot; s16-118, a fourth course
listed by commas and counted 네 개 against 세 과목, two counters the rules do not compare; lexical-21
92, lexical-19 91, lexical-18 89, each with the same two). lexical-23 (a member appended after a
comma, a discount beside the right fee; written after the sixteenth was read): 81, 98, 94, 78, 76,
89, 103 and 95 from the ninth to the sixteenth, no wrong answer YES on any set. The seventeenth
was graded once by lexical-23 (90 of 160, two wrong answers YES: s17-044, a customer's deposit
said as one made to the customer; s17-132, two classes' rooms swapped by their topics, one read as
a name; the draft of lexical-24 then written gave the same 90 and the same two), both fixed at
their cause by lexical-24, which the eighteenth graded once (90 of 160, one wrong answer YES:
s18-128, who sent a log to whom turned round, 보호자님 and 보호자분 read as two people;
lexical-23 87 and the same one). lexical-24 (what a question's word asks, words that deny by
themselves, units, spans, weekdays and names the rules did not read): 111, 111, 104, 95, 105, 89,
82, 101, 98, 82, 78, 92, 108, 100 and 101 from the third to the seventeenth. lexical-25 (written
after the eighteenth was read: people words without their honorific ending, a former value said
instead of the new one, another clause's value for the asked one): 100, 79, 102, 102 and 97 for
the eleventh, thirteenth, sixteenth, seventeenth and eighteenth (not blind), no wrong answer YES.
The nineteenth was graded once by lexical-25 (91 of 160, no wrong answer YES; lexical-24 90,
lexical-23 87, neither with a wrong YES). lexical-26 (written after the nineteenth was read: words
of no value the accounting did not know, …ㄹ 수 있다 for 가능, a greeting, a rate's denominator read
with its count, an owner question answered with another clause's owner): 105, 107, 84, 101, 83, 81,
110 and 96 for the fifth, seventh, ninth, eleventh, twelfth, thirteenth, fifteenth and nineteenth
(not blind), no wrong answer YES. The twentieth was graded once by lexical-26 (88 of 160, six
wrong answers YES: s20-066, s20-082, s20-123, s20-126, s20-143, s20-150; lexical-25 87 with four of
them, lexical-23 79 with the same four — s20-123 and s20-143 were held PARTIAL only by a word
lexical-26 made neutral). lexical-27 (the asked counter by its values' name, lists in a bracket
or after a colon one clause, two owners' poles swapped): 82, 103 and 92 for the thirteenth,
seventeenth and twentieth (not blind). The twenty-first was graded once by lexical-27 (92 of 160,
three wrong answers YES: s21-034, s21-045, s21-128; lexical-26, 25 and 24 the same, lexical-23 87
with the first two). lexical-28 fixed s21-128 at its cause (a noun naming a kind no question word
types — 장소, 방법, 준비물 … — asks every clause): 93 (not blind). lexical-29 (verbs of coming and
going for a Sino-Korean act, 받다 read by who receives, constructions that say an expected word, a
replaced value's markers), written from the sets already read: 112, 112, 107, 96, 109, 89, 86,
103, 103, 85, 86, 92, 111, 103, 107, 101, 99, 93 and 95 for the third to the twenty-first (not
blind). The twenty-second was graded once by lexical-29 (87 of 160, two wrong answers YES: s22-037,
s22-154 — the second of lexical-29's own making; lexical-28 the same 87 with the first only).
lexical-30 fixed both at their cause (the giving verb behind an auxiliary; 각각 asks each thing):
112, 112, 109, 96, 109, 89, 88, 104, 103, 84, 87, 93, 112, 102, 107, 102, 100, 94, 96 and 93 for the
third to the twenty-second (not blind); the twelfth and sixteenth lose one each, a wrong answer
that only low recall had held NO now PARTIAL. The twenty-third was graded once by lexical-30 (88 of
160, two wrong answers YES: s23-086, s23-108; lexical-29 87 and lexical-28 86 with the same two).
lexical-31 fixed s23-086 at its cause (a person value needs a family name: 잔금은 이사 is no
person): 112, 112, 109, 98, 110, 90, 90, 104, 104, 84, 88, 94, 112, 102, 107, 103, 101, 95, 97, 96, 94 for the third to the
twenty-third (not blind). The twenty-fourth was graded once by lexical-31 (66 of 160, four wrong
answers YES: s24-047, s24-086, s24-101, s24-112; lexical-30 65 and lexical-28 66 with the same
four). lexical-32 fixed the four at their cause (two question words ask every clause; two owners
asked by a word of their class; 내일모레 is 모레): 112, 112, 109, 98, 110, 90, 91, 104, 104, 84, 88, 94, 112, 102, 107, 103, 102, 96, 97, 96, 94, 72 for the
third to the twenty-fourth (not blind). The twenty-fifth was graded once by lexical-32 (76 of 160,
six wrong answers YES: s25-004, s25-005, s25-037, s25-044, s25-060, s25-134 — the last of the
converse 받다 lexical-29 brought; lexical-31 75 with seven, lexical-28 72 with five). lexical-33
fixed four at their cause (giver and receiver turned round with a giving verb on both sides; the
one given to said to give): 80 (not blind). The twenty-sixth was graded once by lexical-33 (96 of
160, two wrong answers YES: s26-035, s26-152; lexical-32 95 and lexical-28 93, with s26-078 too,
which lexical-33's giver-and-receiver rule caught blind). lexical-34 (an owner named by a value a
clause of its own, a period that misses the day, a change read as the share left, 확정은 아직, more
units and date forms; written after the twenty-sixth was read): 91, 105, 105, 85, 113, 108, 98,
99, 97 and 81 for the eighth, tenth, eleventh, twelfth, fifteenth, seventeenth, twentieth,
twenty-first, twenty-third and twenty-fifth (not blind). The twenty-seventh was graded once by
lexical-34 (70 of 160, one wrong answer YES: s27-082; lexical-33 the same 70 and not one verdict
different, lexical-28 68, each with the same one). lexical-35 fixed s27-082 at its cause (an item a
bracket moves elsewhere is set apart from the list, a two-noun item matched whole) and read more
(Latin letters by their Korean names, kilolitres and cubic metres, 1인 per person, two values
offered with 인가, a value before a concession the former one, a value the question says given):
101, 93, 106, 86, 115, 109, 99, 98, 74 and 73 for the sixth, eighth, tenth, twelfth, fifteenth,
seventeenth, twentieth, twenty-third, twenty-fourth and twenty-seventh (not blind). The
twenty-eighth was graded once by lexical-35 (83 of 160, two wrong answers YES: s28-017, s28-066;
lexical-34 82 and lexical-28 76, each with the same two). lexical-36 fixed s28-066 at its cause
(오전 and 오후 said without an hour are a value; a question mark with a second question after it
asks two things): 102, 111, 106, 90, 104, 100, 99 and 84 for the sixth, seventh, eleventh,
thirteenth, eighteenth, twenty-first, twenty-third and twenty-eighth (not blind) The twenty-ninth
was graded once by lexical-36 (77 of 160, one wrong answer YES: s29-056; lexical-35 the same 77,
lexical-28 73, each with the same one), after the crash its first grading met (an IndexError of
the substitution rule on s29-048) was fixed at its cause with no verdict changed elsewhere.
lexical-37 (a hedge over some values PARTIAL, denials read through lists, clauses and meaning
classes, owners and poles told apart, grades, ranges, counted lists, 다다음 주): 62 verdicts more
on all the sets, three lost — fp-001 and s18-133, wrong answers hedged whose wrong value the value
rules cannot see (기존 RDS read as former; 6월 중순, the due date, said for the start), once NO for
leaving a value out and now PARTIAL; s15-147, a wrong answer NO by accident (a list member's
clause read against another's negation), now PARTIAL: the eighteenth set's floor is 103. The
thirtieth was graded once by lexical-37 (79 of 160, one wrong answer YES: s30-081; lexical-36 78
and lexical-28 78, each with the same one). lexical-38 (written after the thirtieth was read):
18 verdicts more on the thirty sets, two lost, both wrong answers NO by accident before and now
PARTIAL — s20-108 (a recall below half, now above it with 후 and 이후 one class) and s15-145 (선정
against 확정 read as sibling nouns, now one meaning class; the answer's "확정" against the
statement's pending result is the state rule's, which does not see it): the fifteenth set's floor
is 114. The thirty-first was graded once by lexical-38 (89 of 160, no wrong answer YES; lexical-37
88, none YES; lexical-28 84, one: s31-087). lexical-39 (written after the thirty-first was read):
32 verdicts more on the thirty-one sets, two lost, both wrong answers NO by accident before and
now PARTIAL — s18-072 (a hedged answer with one wrong list member, NO only because "확실하진
않은데" was read as denying the fact; it is a hedge now, and the member, a book title, is no value
the rules read) and s31-056 (broom rental said free where it costs 2,000 won, NO only by a recall
below half; with the note's head "경기장 공지" no longer asked, the shared "다 무료" of a two-item
list against the second item's 유료 is not read): the eighteenth set's floor stays 104 (s18-062
gained). The thirty-second was graded once by lexical-39 (73 of 160, one wrong answer YES:
s32-054; lexical-38 72 and lexical-28 71, each with the same one, lexical-28 also s32-118).
lexical-40 (written after it was read): 5 verdicts more on the thirty-two sets, none lost; the
seventeenth set's floor is 114 and the thirty-second's 77. The thirty-third was graded once by
lexical-40 (71 of 160, two wrong answers YES: s33-018, s33-082, both the "another slot"
convention; lexical-39 70 with the same two, lexical-28 63 with s33-012 too)."""
WRONG_YES: dict[str, list[str]] = {
    "sealed_probes_20": ["s20-066"],
    "sealed_probes_28": ["s28-017"],
    "sealed_probes_33": ["s33-018", "s33-082"],
    "sealed_probes_34": ["s34-028"],
    "sealed_probes_38": ["s38-145"],
    "sealed_probes_41": ["s41-141"],
    "sealed_probes_46": ["s46-073", "s46-091"],
}
"""Wrong answers a sealed set still sees credited YES, each a known limit (docs/metrics.md). Two
are left with lexical-37, both the "another slot" convention (an unverifiable extra beside the
right answer under a question, read as what else the answer knows of the asked matter): s20-066
(정산은 매달 10일) and s28-017 (새 품종 50종); the thirty-third set's two, found by its one grading
(lexical-40; lexical-39 and 28 the same), are that convention as well: s33-018 (약효는 6개월
간대요 beside "세 군데 다 끝났어요") and s33-082 (라스트 오더는 10시 반 beside the closing time
asked); the thirty-sixth set's s36-115, found by its one grading (lexical-43; lexical-42 the same,
lexical-28 none), is not: "어묵 세 박스랑 순대 한 박스 들어왔어요" for "어묵 3박스 입고. 순대 1박스는 …
반품 출고" — the analyser reads 들어왔어요 as 들 + 어 + 오, so the in/out poles said value by value
never saw the answer's pole (lexical-44 fixed it at its cause: a compound verb split by the analyser
is joined); the thirty-seventh set's three, found by its one grading (lexical-44; lexical-43 and
28 the same three), are not that convention: s37-036 lists among what closes in rain a member the
statement excludes in brackets ("실내 스파는 정상 운영": the exception's other pole is said of no
owner the poles rules read), s37-136 swaps two owners' day and hour whole (드레스 / 테크 리허설:
each owner's values are there, in the other's clause), and s37-141 answers "기간이랑 범위" with
the period alone (the scope, "렌즈 파손은 제외", carries no value to be missed) — lexical-45 fixed
the three at their cause (a member set apart in brackets is no member of the list; owners told
apart by a word before one head noun; the limit of a scope the question asks); the thirty-eighth
set's two, found by its one grading (lexical-45; lexical-44 and 28 the same two): s38-145 is the
"another slot" convention (유효기간은 1년 beside the number of sessions asked), s38-159 is not —
asked what a cancellation within 72 hours ("72시간 안쪽으로") refunds, the answer restates the
clause of an earlier one (72시간 전까지 전액 환불): each value is the statement's, of the clause
the question does not ask, and 안쪽 against 전까지 was read by no rule (lexical-46 fixed it at its
cause: two sides of one time threshold); the thirty-ninth set's one, found by its one grading
(lexical-46; lexical-45 the same, lexical-28 s39-024 too): s39-142, asked "몇 시부터 몇
시까지" of one booking, the start alone credited — the end (10시) has the same text as the other
booking's end, a value of a clause the question does not ask, and the missing values were told
from those by their text (lexical-47 fixed it at its cause: they are told by the value); the
fortieth set's one, found by its one grading (lexical-47; lexical-46 the same, lexical-28 none, by
recall): s40-088, "담당 변경: 최 프로 → 한 프로" answered with 최 프로 — a change between two people
named by a surname and a title, which no value rule reads, so the old one stated is no former
value (lexical-48 fixed it at its cause: a change between two words); the forty-first set's three,
found by its one grading (lexical-48; lexical-47 the same three, lexical-28 the first two): s41-036,
asked the price for a 90 cm tank, the base fee alone — the surcharge for tanks over 60 cm applies to
the size the question names; s41-105, asked the monthly fee, the base fee without the exception
after 단 (소나무류 월 7만 원); s41-141, asked where an act comes, 2부 without 엔딩, a word no value
rule reads (lexical-49 fixed the first two at their cause: a clause that qualifies the asked value,
an exception after 단 or a condition the question's value meets, is asked with it); the forty-second
set's two, found by its one grading (lexical-49; lexical-48 and 28 the same two): s42-047, three
labelled notes (탑노트: 자몽, 미들노트: 장미, 베이스노트: 샌달우드) answered with the top and base
swapped — words after labels, which no value rule pairs with their label; s42-143, "매월 첫째
월요일과 셋째 월요일" answered with the first alone — an ordinal before a weekday is no value, so
the two days read as one (lexical-50 fixed both at their cause: words swapped between labels;
a weekday counted within the month, 첫째 월요일, a value of its own); the forty-third set's three, found
by its one grading (lexical-50; lexical-49 and 28 the same three): s43-015, "강사님이 수강생들에게 …
추천해 주심" answered "수강생이 선생님께 추천드렸대" — giver and receiver turned round, the teacher
named 강사님 and 선생님; s43-039, "반품·교환 안 됨" answered "교환은 안 되고 반품만 돼요" — one
member of a denied pair said allowed; s43-041, two boats' berths swapped (해랑호 7번, 바다새호
12번) (lexical-51 fixed the three at their cause: a person named by another word of one meaning
class, a member of a denied list said allowed, owners named by words each said once); the forty-fourth set, graded once by lexical-51 (lexical-50 and
28 the same), credits no wrong answer; the forty-fifth set's three, found by its one grading
(lexical-52; lexical-51 the same three, lexical-28 the last): s45-005, asked whether a birth
grant can be had and how much, the amount alone — the residence condition that limits who gets it
(관내 거주자 한정) carries no value the answer could miss; s45-013, a date the note says may move
(본사 사정으로 변동 가능) answered as certain — a hedge in the statement, not the answer; s45-072,
asked the one-way fare, the round-trip fare given as one way (왕복 58만 원 answered "편도 58만 원"):
the asked pole names no value the poles rules read (lexical-53 fixed the three at their cause: a
clause that may change the values or limits whom they are for is asked with them; 왕복 and 편도
are poles); the forty-sixth set's three, found by its one grading (lexical-53;
lexical-52 the same three, lexical-28 s46-047 too): s46-073, a list of three required documents
answered with a fourth added (가족관계증명서까지 네 가지) — an extra member said required, which no
list rule reads without a question asking for one value; s46-091, two instructors' ranks swapped
(정 사범 5단, 윤 사범 3단) — owners named by a surname and a title, which no value rule reads;
s46-111, "(부품 도착 따라 변동 가능)" in brackets without a question, the date answered as certain —
the bracket is read as an aside, so the rule that asks such a clause with its value never sees it
(lexical-54 fixed it at its cause: words of change in the value's own clause are asked with it); the thirty-fourth set's s34-028 is that convention too (파도가 3미터 넘었대요 beside the
cancellation asked), and s34-047 is not: asked "몇 월 며칠, 무슨 요일이에요?", "9월 26일이요" was
credited — a weekday beside its date was read as the date's even when the question asked for it;
lexical-42 fixed it at its cause. The thirty-second set's one, found by its one
grading (lexical-39; lexical-38 and 28 the same): s32-054, asked "날짜랑 인원 확정됐어요?" of
"다음 달 3일 송년 뷔페 120인분 확정", the date alone credited — 인원 asked for a count of 명, and
120인분 counts people by another counter, so it was read as the setting; lexical-40 fixed it at
its cause (인원 asks a count of people by any of its counters). lexical-37 fixed the other nine at their cause:
s29-056 (the one given to said to give), s26-035 (owners told apart by what their topics do not
share, the answer's by its subject), s26-152 (다다음 주), s25-037 (며칠 asks a second thing),
s25-044 (values held by the two poles of buy/sell), s23-108 (a person doing something is a claim,
no other slot), s21-034 (an exception after 다만 qualifies the asked value), s21-045 (a change
target with its counter, 5관으로 옮겨), s20-082 (grades written 1++ and 1+ are names). The
thirtieth set's one, found by its one grading (lexical-37; lexical-36 and 28 the same): s30-081,
giver and receiver turned round with both named — "원장 선생님께서 수강생들에게 … 나눠
주셨습니다" answered "수강생들이 원장님께 드렸대요" (the statement's doer is read as its last
word, 선생님, and the answer names 원장님: the rule of swapped roles finds no one in common). lexical-38 fixed it at its
cause (a title before 선생님 names the person). Before: the twenty-ninth set's one, found by its one grading (lexical-36; lexical-35 and 28 the same) —
s29-056, sender and recipient turned round: "대표님께 견적서 보내 드림" answered "대표님이 견적서를
… 보내 주셨어요" (the statement names no sender, so the rule of swapped roles has no doer to
compare); the twenty-eighth set's one left of two found by its one grading (lexical-35; lexical-34 and 28 the
same) — s28-017, an unverifiable extra (새 품종 50종) beside the right date under a question (the
"another slot" convention); lexical-36 fixed the other, s28-066 (a second question, 몇 시쯤이요?,
after the first's question mark, left unanswered: 오후 was no value); the twenty-seventh set's one, found by its one grading (lexical-34; lexical-33 and 28 the same) —
s27-082, a list answered with a member the expected statement moved elsewhere in a bracket (목욕
보조는 이론 평가로 대체) — lexical-35 fixed at its cause; the
twenty-sixth set's two, found by its one grading (lexical-33; lexical-28 the same) — s26-035, two
fees swapped between owners said as subjects (감물 염색이 3만 5천 원이고 쪽 염색은 2만 8천 원),
s26-152, 다다음 주 월요일 (the Monday after next) not read, so "오늘" goes unchecked; the
twenty-fifth set's two left of six found by its one grading (lexical-32) — s25-037, a wrong value
in the second clause a two-part question asks (3~4일 for 1~2일, said of 육지 for 제주 외 지역);
s25-044, buying and selling percentages swapped (매입가/판매가 answered with 사 드리고/팔아요);
lexical-33 fixed the other four at their cause (s25-004, s25-005, s25-060: giver and receiver
turned round with a giving verb on both sides; s25-134: the one given to said to give, of
lexical-29's converse 받다); the twenty-third set's s23-108, found by its one grading (lexical-30; lexical-28 and 29 the same): an
unverifiable extra (the withdrawal already filed by the office manager) beside the right answer
under a question — the "another slot" convention again, 사무장님 read as a person (lexical-31 fixed
the other, s23-086: 잔금은 이사 read as a person); the twenty-fourth set's four, found by its one
grading (lexical-31) — three questions asking two things answered with one, 내일모레 read as 내일 —
lexical-32 fixed at their cause; the twenty-first set's two left of the three its one grading found (lexical-27: an extra that
contradicts the 24-hour opening added under a question; the two halls swapped, 3관 and 5관 read as
bare numbers; lexical-28 fixed the third, a date-and-place question answered with the date; the twenty-second
set's two, found by its one grading by lexical-29 — s22-037, two deadlines asked 각각 and one
given; s22-154, giver and receiver turned round with 나눠 드렸다, of lexical-29's making — lexical-30
fixed at their cause), and two of the twentieth set's six, found by its one grading (lexical-26) — s20-066, an unsupported extra
added to the right answer under a question (the "another slot" convention), and s20-082, values
swapped between owners told apart as 1++ and 1+ with the value after a "kg당". lexical-27 fixed
the other four at their cause (s20-150: the asked counter 번 read as its values' 회, and a list
inside a bracket one clause; s20-143: the members after a colon one clause; s20-123 and s20-126:
two owners' poles of one scale swapped, lexical/owners_poles.py). Empty from lexical-25, which fixed the eighteenth set's s18-128 at its cause (sender and receiver turned
round, 보호자님 and 보호자분 read as one person). lexical-24 fixed the seventeenth set's two at their cause (s17-044: the doer of
a deposit said as the one it is made to, 고객님께; s17-132: two owners' values swapped by topics
the analyser reads apart, 창의미술반 and 창 + 미술). lexical-23 fixed the sixteenth set's two at their cause (s16-079: a discount beside
the right fee changes the asked amount, no other slot; s16-118: a member appended after a comma);
lexical-22 which fixed the fifteenth set's s15-157 at its cause ("멸치볶음은 화요일이랑
금요일에만" takes the days the statement gives 장조림, the owners being nouns, not values); lexical-20
fixed the thirteenth set's two (s13-070: news of a change
about another slot added to the right answer; s13-088: 이번 달 말 said in another month); s8-148
and s11-040 were fixed by lexical-19, s11-141 by lexical-18. The list must not grow; a fix removes
its entry."""


@pytest.mark.parametrize("name", SEALED)
def test_the_sealed_sets_credit_no_wrong_answer_and_keep_their_right_verdicts(name):
    out = graded(name)
    wrong_yes = [p["id"] for p, label, _ in out if p["verdict"] != "YES" and label == "YES"]
    assert wrong_yes == WRONG_YES.get(name, [])
    assert sum(p["verdict"] == label for p, label, _ in out) >= SEALED[name]


@pytest.mark.parametrize("with_glossary", [False, True], ids=["rules", "glossary"])
@pytest.mark.parametrize("name", SETS)
def test_no_wrong_answer_is_credited_yes(name, with_glossary):
    out = graded(name, with_glossary)
    wrong_yes = [p["id"] for p, label, _ in out if p["verdict"] != "YES" and label == "YES"]
    assert wrong_yes == []


@pytest.mark.parametrize("name", SETS)
def test_eighty_five_percent_of_verdicts_are_right(name):
    right = sum(p["verdict"] == label for p, label, _ in graded(name))
    assert right >= RIGHT[name] and right >= 0.85 * len(graded(name))


@pytest.mark.parametrize("name", SETS)
def test_right_answers_credited_yes_do_not_fall_below_the_floor(name):
    right = [label for p, label, _ in graded(name) if p["verdict"] == "YES"]
    assert right.count("YES") >= FLOOR[name] > BEFORE[name]["right_yes"]


@pytest.mark.parametrize("name", SETS)
def test_ninety_percent_of_right_answers_are_credited_yes_with_the_glossary(name):
    right = [label for p, label, _ in graded(name, True) if p["verdict"] == "YES"]
    assert right.count("YES") >= WITH_GLOSSARY[name]
    assert right.count("YES") >= 0.9 * len(right)


@pytest.mark.xfail(
    strict=True,
    reason="rules alone: 29/35 and 37/43; the misses the glossary does not mend are a paraphrased "
    "value (두 번째 안) and answers stating the value by implication; see docs/metrics.md",
)
@pytest.mark.parametrize("name", SETS)
def test_ninety_percent_of_right_answers_are_credited_yes_from_the_rules_alone(name):
    right = [label for p, label, _ in graded(name) if p["verdict"] == "YES"]
    assert right.count("YES") >= 0.9 * len(right)
