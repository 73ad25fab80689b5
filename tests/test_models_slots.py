"""A busy server is not a dead one (engine/models/streaming.py, engine/models/slots.py), against the
test server in one-slot mode (requests beyond one wait in line, sending nothing, like Ollama's
queue): with concurrency 2, first_token_s 2 and 5-second replies no request is failed while the
other streams, the client learns the host has one slot within the first few calls and lowers its
limit, and the live view can say "queued behind N of ours"; a host that sends nothing for anyone
still times out."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from seorap.engine.models.base import ModelTimeout
from seorap.engine.models.client import ModelClient
from seorap.engine.models.hosts import HostPool
from seorap.engine.models.ollama_chat import OllamaChat
from seorap.engine.run import accounting
from seorap.engine.store.database import open_db

MODEL = "qwen3.5:9b"
REPLY = "다섯 초 동안 흘러나오는 답입니다 " * 2  # 36 characters: 9 chunks of 4, 0.55 s apart ≈ 5 s


def ask(client: ModelClient, n: int, run_id: str | None = None) -> str:
    messages = [{"role": "user", "content": f"질문 {n}"}]
    return client.text("answerer", MODEL, messages, phase="score", run_id=run_id)


@pytest.fixture
def one_slot(ollama_server):
    ollama_server.slots = 1
    ollama_server.handler = lambda body: REPLY
    ollama_server.streaming(chunk_chars=4, delay_s=0.55)
    return ollama_server


def test_a_request_queued_behind_our_own_stream_is_not_failed(one_slot):
    client = ModelClient(OllamaChat(one_slot.url), first_token_s=2.0, timeout_s=2.0)
    lines: list[str] = []
    client.on_queue(lines.append)  # what the live view and the CLI progress show
    seen: list[dict] = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if q := client.queued():
                seen.append(q)
            time.sleep(0.1)

    threading.Thread(target=watch, daemon=True).start()
    with ThreadPoolExecutor(2) as pool:
        replies = list(pool.map(lambda n: ask(client, n), range(2)))
    done.set()
    assert replies == [REPLY, REPLY]
    assert client.stats.timeouts == 0 and client.stats.errors == 0
    assert one_slot.max_generating == 1  # the server really did one at a time
    assert client.stats.queued == 1  # the second waited ~5 s behind the first, with first_token_s 2
    host = OllamaChat(one_slot.url).host
    assert {host: 1} in seen  # the queue was visible while it waited ...
    assert f"queued behind 1 of ours on {host}" in lines and lines[-1] == ""  # ... and said so


@pytest.mark.slow  # heavy: keeps the README lane under 25 min on a quiet 2-core machine
def test_the_host_slots_are_learned_and_its_limit_lowered(one_slot, tmp_path):
    db = open_db(tmp_path / "r.db")
    client = ModelClient(OllamaChat(one_slot.url), db, first_token_s=2.0, timeout_s=2.0)
    learned_after: list[int] = []

    def call(n: int) -> str:
        out = ask(client, n, run_id="r1")
        if client.slots.learned and not learned_after:
            learned_after.append(client.stats.calls)
        return out

    with ThreadPoolExecutor(2) as pool:
        replies = list(pool.map(call, range(5)))
    host = client.slots.host
    assert replies == [REPLY] * 5 and client.stats.errors == 0
    assert client.slots.learned == {host: 1}
    assert learned_after and learned_after[0] <= 3  # within the first few calls
    # once learned, the later calls wait in our queue, not the server's: its wait never started
    assert one_slot.max_generating == 1
    acc = accounting.run_accounting(db, "r1")
    assert acc.slots == {host: 1}
    assert acc.roles[0].queued >= 2
    assert any("learned slots" in line for line in accounting.lines(acc))


def test_a_configured_slot_count_is_used_as_it_is(one_slot):
    client = ModelClient(OllamaChat(one_slot.url), first_token_s=2.0, timeout_s=2.0, slots=1)
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda n: ask(client, n), range(2)))
    assert client.slots.learned == {}  # configured, never learned
    assert client.stats.queued == 1 and client.stats.timeouts == 0


@pytest.mark.slow  # heavy: keeps the README lane under 25 min on a quiet 2-core machine
def test_a_host_pool_limit_is_lowered_to_the_learned_slots(one_slot):
    pool = HostPool([OllamaChat(one_slot.url)], per_host=2)
    client = ModelClient(pool, first_token_s=2.0, timeout_s=2.0)
    with ThreadPoolExecutor(2) as threads:
        list(threads.map(lambda n: ask(client, n), range(4)))
    assert client.stats.errors == 0
    assert pool.limits == [1]


def test_a_host_that_sends_nothing_to_anyone_still_times_out(ollama_server):
    """Host-aware waiting only stops the clock while the host streams for us."""
    ollama_server.fail("no_first_token", seconds=5, times=2)
    client = ModelClient(OllamaChat(ollama_server.url), first_token_s=0.5, retry_backoff_s=0.01)
    with pytest.raises(ModelTimeout, match="no reply"):
        ask(client, 0)
    assert client.stats.timeouts == 2  # retried once, then failed as before


# ---- templated loops ------------------------------------------------------------------------------
def test_a_templated_loop_is_stopped_within_five_repetitions(ollama_server, tmp_path):
    """The real 0.5B model's loop: "19:31 차은호 (플랫폼팀장)", "19:33 …", a counter changing and no
    word the document has not already given. It is stopped at the 5th repetition, the item before
    it is kept, and the reason names the kind."""
    from seorap.engine.memory.schemas import Extraction

    db = open_db(tmp_path / "r.db")
    ollama_server.fail("template_loop")
    ollama_server.streaming(chunk_chars=6)
    client = ModelClient(OllamaChat(ollama_server.url), db, num_predict=4096)
    document = "09:31 차은호 (플랫폼팀장): 배포를 승인했다. 09:40 김민수: 확인."
    messages = [{"role": "user", "content": f"<document>{document}</document>"}]
    result = client.structured(
        "extractor", MODEL, messages, Extraction, run_id="r1", phase="extract", salvage=True
    )
    assert client.stats.loops == 1 and client.stats.template_loops == 1
    assert result.partial and result.value is not None
    assert [o.text for o in result.value.observations] == [
        "09:31 차은호 플랫폼팀장이 배포를 승인했다"
    ]
    assert "loop: template" in (result.failure or "")
    assert result.raw.count("(플랫폼팀장)") <= 5  # the stream was closed at the 5th repetition
    assert ollama_server.disconnects == 1 or result.raw.count("(플랫폼팀장)") < 300
    acc = accounting.run_accounting(db, "r1")
    assert acc.roles[0].loops == 1 and acc.roles[0].template_loops == 1


def test_distinct_observations_of_one_shape_are_not_a_templated_loop():
    from seorap.engine.models.loops import find_template_loop, prompt_words

    document = (
        "회의는 3월 5일로 연기되었다. 예산은 4200만 원이다. 김민수가 발표한다. 이수진이 검토한다."
    )
    known = prompt_words([{"content": document}])
    items = [
        "회의는 3월 5일로 연기되었다",
        "예산은 4200만 원이다",
        "김민수가 발표한다",
        "이수진이 검토한다",
    ]
    text = '{"observations": [' + ", ".join(f'{{"text": "{s}"}}' for s in items * 1) + ", "
    assert find_template_loop(text, known) is None  # every item brings new document words
    counter = ", ".join(f'{{"text": "{9 + i}:31 김민수가 발표한다"}}' for i in range(5))
    assert find_template_loop(text + counter + ", ", known) is not None
    assert find_template_loop(text + counter.rsplit(", ", 1)[0] + ", ", known) is None  # only 4


def test_an_exact_loop_of_whole_items_keeps_one_copy():
    """The real model's other loop: the same complete observation four times. Its copies are not
    new items: salvage keeps the items before and the first copy, not the four."""
    from seorap.engine.memory.schemas import Extraction
    from seorap.engine.models.loops import find_loop, repeat_start
    from seorap.engine.models.replies import salvage_items

    first = '{ "text": "이사 업체는 한마음익스프레스입니다. 세 곳에서 견적을 받았습니다." }'
    again = (
        '{ "text": "이사 비용은 680만 원입니다. 처음 받은 견적은 750만 원이었는데, 조정했어요." }'
    )
    text = '{ "observations": [ ' + first + ", " + ", ".join([again] * 4) + ", {"
    assert find_loop(text)
    value, kept, _ = salvage_items(text[: repeat_start(text)], Extraction)
    assert kept == 2 and value is not None
    assert [o.text[:6] for o in value.observations] == ["이사 업체는", "이사 비용은"]
