"""The lexical judge's morpheme analyser in a child process (engine/scoring/lexical/analyser.py):
the same morphemes as in process, NotReady instead of a wait inside no_wait, and never stopped
while a request waits for it (issue 36)."""

from __future__ import annotations

import os
import threading
import time

import pytest

from seorap.engine.scoring.lexical import text
from seorap.engine.scoring.lexical.analyser import NICE, AnalyserProcess

TEXTS = [
    "서랍을 열었다",
    "다온헬스케어 진료 데이터 백업 보관 기간은 5년",
    "배수아다",
    "회의는 3월 5일, 오후 2시에 시작한다; 장소는 본관",
]


def test_the_child_gives_the_same_morphemes_and_no_wait_does_not_wait():
    in_process = [text.morphemes(t) for t in TEXTS]
    text._piece.cache_clear()
    try:
        process = text.use_process()
        if not process.ready.is_set():
            with text.no_wait():
                try:
                    text.morphemes("아직 준비되지 않은 문장")
                    raise AssertionError("no_wait waited for the analyser")
                except text.NotReady:
                    pass
        assert [text.morphemes(t) for t in TEXTS] == in_process
        assert text.warm()
    finally:
        text.stop_process()
        text._piece.cache_clear()


def test_pause_never_stops_the_child_under_a_request():
    process = AnalyserProcess()
    try:
        got: list = []
        asking = threading.Thread(target=lambda: got.append(process.tokenize("서랍을 열었다")))
        asking.start()
        time.sleep(0.2)  # the request waits for the child's warm-up, holding the lock
        process.pause()
        assert not process.paused
        asking.join(120)
        assert got and got[0][0][0] == "서랍"
    finally:
        process.close()
    assert process.proc.returncode is not None


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="no process priorities here")
def test_the_child_yields_a_core_to_the_app():
    """Its warm-up is work ahead: on busy cores the kernel must give the app's keys a core first."""
    process = AnalyserProcess()
    try:
        process.ready.wait(120)
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, process.proc.pid) == min(19, mine + NICE)
    finally:
        process.close()
