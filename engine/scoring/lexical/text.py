"""Character bigrams (ranking helpers, not verdicts) and kiwipiepy morphemes, memoised clause by
clause."""

from __future__ import annotations

import atexit
import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from seorap.engine.retrieval.tokenize import bigram_set as _memo_bigram_set
from seorap.engine.scoring.lexical.analyser import AnalyserProcess

# ---- character bigrams (ranking helpers, not verdicts) ---------------------------------------------


def bigram_set(text: str) -> frozenset[str]:
    """Distinct bigrams of ``text`` (memoised in engine.tokenize)."""
    return _memo_bigram_set(text)


def recall(expected: str, candidate: str) -> float:
    """Share of the expected text's distinct bigrams present in the candidate (1.0 when empty)."""
    want = bigram_set(expected)
    if not want:
        return 1.0
    return len(want & bigram_set(candidate)) / len(want)


def f1(expected: str, candidate: str) -> float:
    want, have = bigram_set(expected), bigram_set(candidate)
    common = len(want & have)
    if not common:
        return 0.0
    p, r = common / len(have), common / len(want)
    return 2 * p * r / (p + r)


# ---- kiwipiepy ------------------------------------------------------------------------------------

_KIWI: Any = None  # a kiwipiepy.Kiwi (kiwipiepy ships no type information)
_WARM = False
"""kiwipiepy has tokenized once: its model is built and its first sentence (the slow one) done."""


def _kiwi() -> Any:
    global _KIWI
    if _KIWI is None:
        # start-up: kiwipiepy loads only when this runs
        from kiwipiepy import Kiwi

        _KIWI = Kiwi()
    return _KIWI


_PROCESS: AnalyserProcess | None = None
"""The analyser in a child process (``use_process``), when this process must keep answering."""
_NO_WAIT = threading.local()


class NotReady(RuntimeError):
    """Inside ``no_wait``: the analyser process is still warming up, so a judgement would wait."""


def use_process() -> AnalyserProcess:
    """From now on, analyse in a child process (started here, warming up at once) instead of in
    this one: for the app, whose keys must not wait while kiwipiepy holds the interpreter. The
    child lives as long as this process (ended at exit)."""
    global _PROCESS
    if _PROCESS is None:
        _PROCESS = AnalyserProcess()
        atexit.register(stop_process)
    return _PROCESS


def stop_process() -> None:
    """End the child process (if any); analysis is in process again."""
    global _PROCESS
    if _PROCESS is not None:
        _PROCESS.close()
        _PROCESS = None


def pause_process() -> None:
    """Stop the analyser process's warm-up for now (a person is typing); see ``AnalyserProcess``."""
    if _PROCESS is not None:
        _PROCESS.pause()


def resume_process() -> None:
    if _PROCESS is not None:
        _PROCESS.resume()


@contextmanager
def no_wait() -> Iterator[None]:
    """In this block (this thread), analysing a text the analyser process would keep waiting for
    raises NotReady instead (a screen then shows what it can and asks again later)."""
    before = getattr(_NO_WAIT, "on", False)
    _NO_WAIT.on = True
    try:
        yield
    finally:
        _NO_WAIT.on = before


def warm() -> bool:
    """The morpheme analyser is loaded and has tokenized once: judging no longer waits for it."""
    return _WARM or (_PROCESS is not None and _PROCESS.ready.is_set())


def _tokens(text: str) -> list[tuple[str, str, int, int]]:
    """kiwipiepy's tokens of ``text`` (form, tag, start, length), in the child process if any."""
    process = _PROCESS
    if process is not None:
        if getattr(_NO_WAIT, "on", False) and not process.ready.is_set():
            raise NotReady("the morpheme analyser is still loading")
        return process.tokenize(text)
    return [(t.form, t.tag, t.start, t.len) for t in _kiwi().tokenize(text)]


JOINING = frozenset({"어", "아", "여"})
"""The connective ending between the two verbs of one compound (들어오다, 돌려주다, 찾아가다) or a
verb and its auxiliary (나눠 주다)."""


@dataclass(frozen=True)
class Morph:
    form: str
    tag: str
    start: int
    end: int


_PIECE = re.compile(r"\s*(?:[;\n/]|\.(?!\d)|,(?!(?<=\d,)\d))\s*")


def morphemes(text: str) -> tuple[Morph, ...]:
    """kiwipiepy morphemes of ``text`` with their character spans. The text is analysed clause by
    clause (split at ``, . ; /``), each clause memoised: answers join the same facts again and again."""
    out: list[Morph] = []
    pos = 0
    for m in [*_PIECE.finditer(text), None]:
        end = len(text) if m is None else m.start()
        if end > pos:
            out += [Morph(t.form, t.tag, t.start + pos, t.end + pos) for t in _piece(text[pos:end])]
        if m is not None:
            pos = m.end()
    return tuple(out)


_AUXILIARIES = {("않", "VV"): "VX"}
"""Stems that are only ever auxiliary verbs, which the analyser sometimes tags as main verbs
(하지 않고: 않/VV): tagged as what they are, so a negation is read whatever the tag said."""


@lru_cache(maxsize=1 << 16)
def _piece(text: str) -> tuple[Morph, ...]:
    if not text.strip():
        return ()
    global _WARM
    morphs = tuple(
        Morph(
            form,
            _AUXILIARIES.get((form, tag.split("-")[0]), tag.split("-")[0]),
            start,
            start + length,
        )
        for form, tag, start, length in _tokens(text)
    )  # VV-R, VV-I (irregular stems) are verbs like any other
    _WARM = _WARM or _PROCESS is None
    return _denying_words(_warehousing(_negating_an(_split_copula(morphs))))


_WHOLE = frozenset(
    {"휴진", "휴원", "휴장", "휴강", "휴관", "휴무", "휴업", "휴항", "결방", "불통", "순연"}
)
"""Nouns that deny by themselves which kiwipiepy cuts in two (휴 + 진, 결 + 방): read whole."""
_PREFIXES = frozenset("미불무비")


def _denying_words(morphs: tuple[Morph, ...]) -> tuple[Morph, ...]:
    """kiwipiepy cuts some nouns that deny by themselves (``_WHOLE``: 휴진 as 휴 + 진) and reads
    the denying prefix of others as a noun (미 + 실시, 미 + 납; 미사용 as 미사 + 용): they are read
    as one noun, or as the prefix (XPN) and its noun, with nothing between (since lexical-49)."""
    out: list[Morph] = []
    for m in morphs:
        prev = out[-1] if out else None
        if prev is None or prev.end != m.start:
            out.append(m)
        elif prev.tag.startswith("NN") and m.tag.startswith("NN") and prev.form + m.form in _WHOLE:
            out[-1] = Morph(prev.form + m.form, "NNG", prev.start, m.end)
        elif (prev.form, m.form, m.tag) == ("미사", "용", "XSN"):  # 미사용: not 미사 (mass)
            out[-1:] = [Morph("미", "XPN", prev.start, prev.start + 1)]
            out.append(Morph("사용", "NNG", prev.start + 1, m.end))
        elif prev.form in _PREFIXES and prev.tag in ("NNP", "NNG") and m.tag == "NNG":
            out[-1] = Morph(prev.form, "XPN", prev.start, prev.end)
            out.append(m)
        else:
            out.append(m)
    return tuple(out)


def _warehousing(morphs: tuple[Morph, ...]) -> tuple[Morph, ...]:
    """kiwipiepy reads the noun 입고 (goods taken in) right after a noun as 입다 (to wear) + 고:
    "원단 입고 12장", "금요일 입고". 입 + 고 after a noun with nothing between (no 을/를: 옷을 입고
    is the verb) and no verb after it (작업복 입고 들어가세요 is) is the noun (since lexical-39)."""
    out: list[Morph] = []
    for i, m in enumerate(morphs):
        if (
            out
            and (m.form, m.tag) == ("고", "EC")
            and (out[-1].form, out[-1].tag) == ("입", "VV")
            and out[-1].end == m.start
            and i >= 2
            and morphs[i - 2].tag in ("NNG", "NNP", "NNB", "SN", "SL", "SP", "SSC")
            and (i + 1 == len(morphs) or morphs[i + 1].tag not in ("VV", "VA", "VX"))
        ):  # 작업복 입고 들어가세요: the verb
            out[-1] = Morph("입고", "NNG", out[-1].start, m.end)
            continue
        out.append(m)
    return tuple(out)


def _negating_an(morphs: tuple[Morph, ...]) -> tuple[Morph, ...]:
    """kiwipiepy sometimes reads the negating 안 after a bare noun as the noun 안 (inside):
    "연습실 안 열어요" as 연습실 + 안/NNG + 열다. 안 written apart, with no particle after it and a
    verb or adjective right after, is the adverb (since lexical-30)."""
    out = list(morphs)
    for i, m in enumerate(morphs[:-1]):
        nxt = morphs[i + 1]
        if (m.form, m.tag) == ("안", "NNG") and nxt.tag in ("VV", "VA") and nxt.start > m.end:
            out[i] = Morph("안", "MAG", m.start, m.end)
    return tuple(out)


def _split_copula(morphs: tuple[Morph, ...]) -> tuple[Morph, ...]:
    """kiwipiepy sometimes reads a name and the plain copula ending the clause as one noun
    (배수아다 for 배수아 + 이다): a noun of three or more syllables ending in 다 that ends the clause
    with no particle or ending after it is split back into the noun, 이/VCP and 다/EF."""
    if not morphs:
        return morphs
    last = morphs[-1]
    if last.tag in ("NNG", "NNP") and len(last.form) >= 3 and last.form.endswith("다"):
        end = last.end - 1
        return (
            *morphs[:-1],
            Morph(last.form[:-1], last.tag, last.start, end),
            Morph("이", "VCP", end, end),
            Morph("다", "EF", end, last.end),
        )
    return morphs


def not_yet(morphs: Sequence[Morph], i: int) -> bool:
    """아직 at ``i`` is all that is said of the noun before it (확정은 아직이에요, 결정은 아직.):
    the noun's matter has not happened, a negation (since lexical-34)."""
    if not 0 <= i < len(morphs):
        return False
    nxt = morphs[i + 1] if i + 1 < len(morphs) else None
    return (
        (morphs[i].form, morphs[i].tag) == ("아직", "MAG")
        and i >= 2
        and morphs[i - 1].tag == "JX"
        and morphs[i - 2].tag.startswith("NN")
        and (nxt is None or nxt.tag in ("VCP", "EF", "SF"))
    )


def joined_verbs(morphs: Sequence[Morph], i: int) -> list[str]:
    """The compound verbs morpheme ``i`` is half of, as one stem: kiwipiepy reads 들어왔다 as
    들 + 어 + 오; the meaning classes list 들어오."""
    verb = ("VV", "VX")
    if morphs[i].tag not in verb:
        return []
    out = []
    for a in (i - 2, i):
        b = a + 2
        if a < 0 or b >= len(morphs):
            continue
        first, ending, second = morphs[a], morphs[a + 1], morphs[b]
        if (
            first.tag == "VV"
            and ending.tag == "EC"
            and ending.form in JOINING
            and second.tag in verb
        ):
            if first.end == ending.start or ending.end == second.start:  # one word, no space
                out.append(first.form + ending.form + second.form)
                out.append(contracted(first.form, ending.form) + second.form)
    return out


_CONTRACTIONS = {(20, "어"): 6, (8, "아"): 9, (13, "어"): 14, (18, "어"): 4, (11, "어"): 10}
"""(a stem's last vowel, the ending) -> the vowel they make as one syllable (ㅣ+어 → ㅕ, ㅗ+아 → ㅘ,
ㅜ+어 → ㅝ, ㅡ+어 → ㅓ, ㅚ+어 → ㅙ); vowels by their index in Unicode's Hangul syllables."""


def contracted(stem: str, ending: str) -> str:
    """The stem and 어/아 as written together (돌리 + 어 → 돌려, 쓰 + 어 → 써, 가 + 아 → 가, 하 + 여
    → 해): the form a compound verb is listed with."""
    last = ord(stem[-1]) - 0xAC00 if stem else -1
    if not 0 <= last < 11172 or last % 28:  # not a syllable, or one with a final consonant
        return stem + ending
    initial, vowel = divmod(last // 28, 21)
    if stem[-1] == "하" and ending == "여":
        return stem[:-1] + "해"
    if (vowel, ending) in _CONTRACTIONS:
        vowel = _CONTRACTIONS[(vowel, ending)]
    elif not ((vowel == 0 and ending == "아") or (vowel in (4, 1) and ending == "어")):
        return stem + ending  # no contraction this table knows
    return stem[:-1] + chr(0xAC00 + (initial * 21 + vowel) * 28)
