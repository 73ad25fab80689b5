"""`seorap validate` compares claim values in one notation (engine.normalise.canonical): a stale
claim that is still a current claim written another way, and a claim listed twice in two
notations, are found; values that differ are not taken for one."""

import copy

import pytest
from test_validate import MINIMAL, run, write

from seorap.engine import normalise


def _with(state: int, **fields):
    data = copy.deepcopy(MINIMAL)
    data["states"][state].update(fields)
    return data


def test_a_stale_claim_still_current_in_another_notation(tmp_path):
    data = _with(
        1,
        claims=["계약 만료일은 2027년 3월 31일"],
        docClaims=["계약 만료일은 2027년 3월 31일"],
        staleClaims=["계약 만료일은 2027. 3. 31."],
    )
    result = run(write(tmp_path, data))
    assert result.exit_code == 1
    assert "states[1].staleClaims[0]: still in this state's claims" in result.output
    assert "written there as '계약 만료일은 2027년 3월 31일'" in result.output


def test_a_claim_listed_twice_in_two_notations(tmp_path):
    data = _with(
        1,
        claims=["백업 보관 용량은 1.5TB", "백업 보관 용량은 1,500GB"],
        docClaims=["백업 보관 용량은 1.5TB"],
        staleClaims=[],
    )
    result = run(write(tmp_path, data))
    assert result.exit_code == 1
    assert "states[1].claims: duplicate claim: '백업 보관 용량은 1.5TB'" in result.output
    assert "also written '백업 보관 용량은 1,500GB'" in result.output


def test_other_values_are_not_one(tmp_path):
    data = _with(
        1,
        claims=[
            "예산은 310만 원",
            "예산은 3,100달러",
            "마감은 2027. 3. 31.",
            "마감은 2027. 3. 13.",
        ],
        docClaims=["예산은 310만 원"],
        staleClaims=["예산은 300만 원"],
    )
    result = run(write(tmp_path, data))
    assert "duplicate claim" not in result.output
    assert "still in this state's claims" not in result.output


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("마감 2026. 3. 5.", "마감 2026년 3월 5일"),
        ("마감 2026-03-05", "마감 2026/3/5"),
        ("로그 1.5TB", "로그 1,500GB"),
        ("비용 1억 2천만 원", "비용 1.2억 원"),
        ("비용 310만 원", "비용 3,100,000원"),
        ("지연 200ms", "지연 0.2초"),
        ("약정 18개월", "약정 1.5년"),
        ("캐시 2시간", "캐시 120분"),
        ("시작 오후 3시", "시작 15:00"),
        ("시작 9시 반", "시작 09:30"),
        ("인원 1,200명", "인원 1200 명"),
    ],
)
def test_canonical_same(a, b):
    assert normalise.canonical(a) == normalise.canonical(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("비용 310만 원", "비용 3,100달러"),
        ("마감 2026. 3. 5.", "마감 2026. 5. 3."),
        ("약정 1개월", "약정 30일"),
        ("2026년 계획", "24312개월 계획"),
        ("v2.3 배포", "v23 배포"),
        ("오후 3시", "오전 3시"),
    ],
)
def test_canonical_different(a, b):
    assert normalise.canonical(a) != normalise.canonical(b)
