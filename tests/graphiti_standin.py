"""A stand-in model for graphiti's prompts, for the fake Ollama server (tests only; not a model).

graphiti asks each structured call with its own response model; seorap's client sends that model's
JSON schema as Ollama's ``format``, so the schema's ``title`` says which question this is. The
answers are read from the prompt's own blocks with a few plain rules:

- a *fact sentence* is a sentence with a topic-marked subject ("X는 …", "X은 …", with the two
  words before it) and a value after it (a latin-letter name, a figure, a date);
- entities: each fact sentence's subject and its value;
- edges: one per fact sentence, subject → value, the sentence as the fact, valid from the
  reference time;
- a new fact **contradicts** a listed fact with the same subject and another value, and **duplicates**
  one with the same text;
- nodes are duplicates only by the same name; summaries are the first sentence that names the
  entity; timestamps are the reference time.

Runnable on its own: ``python tests/graphiti_standin.py --port P`` serves it (Ollama's API, and
OpenAI's chat completions and embeddings under ``/v1``, which graphiti's own client speaks).
"""

from __future__ import annotations

import ast
import json
import re

SENTENCE = re.compile(r"[^.!?\n。]+")
SUBJECT = re.compile(r"^(?P<s>[0-9A-Za-z가-힣]{2,}?)(은|는)$")
VALUE = re.compile(r"\d[\d,.:/-]*\s*[가-힣%A-Za-z]{0,3}|[A-Za-z][A-Za-z0-9-]+")


def blocks(text: str, tag: str) -> str:
    """The text inside ``<TAG>`` … ``</TAG>`` ("" when absent)."""
    m = re.search(rf"<{re.escape(tag)}>\s*(.*?)\s*</{re.escape(tag)}>", text, re.DOTALL)
    return m.group(1) if m else ""


def listed(text: str, tag: str) -> list:
    """A list block: JSON, or a Python literal (graphiti writes some lists with ``str()``)."""
    raw = blocks(text, tag) or "[]"
    try:
        value = json.loads(raw)
    except ValueError:
        try:
            value = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            return []
    return value if isinstance(value, list) else []


def fact(sentence: str) -> tuple[str, str] | None:
    """(subject, value) of a fact sentence, None for any other sentence. The subject is the
    topic-marked word with the two words before it ("주문 API 실행 환경은" -> "주문 API 실행 환경")."""
    words = [w.strip(",:;-") for w in sentence.split()]
    for i, word in enumerate(words[:-1]):
        m = SUBJECT.match(word)
        if not m:
            continue
        values = VALUE.findall(" ".join(words[i + 1 :]))
        if not values:
            return None
        return " ".join([*words[max(0, i - 2) : i], m.group("s")]), values[0].strip()
    return None


def facts(text: str) -> list[tuple[str, str, str]]:
    out = []
    for s in SENTENCE.findall(text):
        found = fact(s.strip())
        if found:
            out.append((*found, s.strip()))
    return out


def message(text: str) -> str:
    for tag in ("TEXT", "CURRENT_MESSAGE", "CURRENT MESSAGE"):
        if blocks(text, tag):
            return blocks(text, tag)
    return ""


def answer(title: str, prompt: str) -> dict:
    text = message(prompt)
    if title == "ExtractedEntities":
        names = dict.fromkeys(n for s, v, _ in facts(text) for n in (s, v))
        return {"extracted_entities": [{"name": n, "entity_type_id": 0} for n in names]}
    if title == "NodeResolutions":
        existing = listed(prompt, "EXISTING ENTITIES")
        by_name = {e.get("name"): e.get("candidate_id", e.get("idx", -1)) for e in existing}
        resolutions = []
        for i, e in enumerate(listed(prompt, "ENTITIES")):
            name = e.get("name", "")
            resolutions.append(
                {
                    "id": e.get("id", i),
                    "name": name,
                    "duplicate_candidate_id": by_name.get(name, -1),
                }
            )
        return {"entity_resolutions": resolutions}
    if title == "ExtractedEdges":
        when = blocks(prompt, "REFERENCE_TIME").split("#")[0].strip() or None
        return {
            "edges": [
                {
                    "source_entity_name": s,
                    "target_entity_name": v,
                    "relation_type": "STATES",
                    "fact": sentence,
                    "valid_at": when,
                    "invalid_at": None,
                }
                for s, v, sentence in facts(text)
            ]
        }
    if title == "EdgeDuplicate":
        return resolve(prompt)
    if title in ("EdgeTimestamps",):
        return {"valid_at": None, "invalid_at": None}
    return empty(title)


def resolve(prompt: str) -> dict:
    new = blocks(prompt, "NEW FACT")
    try:
        new_text = json.loads(new).get("fact", new) if new.startswith("{") else new
    except ValueError:
        new_text = new
    mine = fact(new_text)
    existing = listed(prompt, "EXISTING FACTS")
    candidates = listed(prompt, "FACT INVALIDATION CANDIDATES")
    duplicates, contradicted = [], []
    for i, item in enumerate(existing + candidates):
        idx = item.get("idx", i)
        theirs = fact(str(item.get("fact", "")))
        if item.get("fact") == new_text and i < len(existing):
            duplicates.append(idx)
        elif mine and theirs and mine[0] == theirs[0] and mine[1] != theirs[1]:
            contradicted.append(idx)
    return {"duplicate_facts": duplicates, "contradicted_facts": contradicted}


EMPTY = {
    "SummarizedEntities": {"summaries": []},
    "EntitySummary": {"summary": ""},
    "Summary": {"summary": ""},
    "SummaryDescription": {"description": ""},
}


def empty(title: str) -> dict:
    return EMPTY.get(title, {})


def handler(body: dict) -> str:
    """The fake Ollama server's handler: ``/api/chat`` body -> reply text."""
    schema = body.get("format") if isinstance(body.get("format"), dict) else {}
    title = str((schema or {}).get("title", ""))
    prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
    return json.dumps(answer(title, prompt), ensure_ascii=False)


def every_system(body: dict) -> str:
    """graphiti's prompts as above, mem0's as tests/ollama_fake.py answers them, and seorap's own
    prompts by the offline stand-in (engine/models/standin.py): one server for all of them."""
    from ollama_fake import mem0_reply

    from seorap.engine.models.standin import ollama_handler

    schema = body.get("format") if isinstance(body.get("format"), dict) else {}
    if str((schema or {}).get("title", "")) in GRAPHITI_TITLES:
        return handler(body)
    mem0 = mem0_reply(body)
    return mem0 if mem0 is not None else str(ollama_handler()(body))


GRAPHITI_TITLES = {
    "ExtractedEntities",
    "NodeResolutions",
    "ExtractedEdges",
    "EdgeDuplicate",
    "EdgeTimestamps",
    *EMPTY,
}


if __name__ == "__main__":
    import argparse
    import time

    from ollama_fake import FakeOllama

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=11434)
    parser.add_argument(
        "--every-system", action="store_true", help="also answer mem0's and seorap's own prompts"
    )
    args = parser.parse_args()
    server = FakeOllama().start(args.port)
    server.handler = every_system if args.every_system else handler
    print(f"graphiti stand-in on {server.url}", flush=True)
    while True:
        time.sleep(3600)
