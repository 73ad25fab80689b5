#!/usr/bin/env python3
"""A small memory system speaking seorap's JSON-lines protocol (docs/systems.md).

Run by seorap as ``--system exec:"python examples/jsonl_memory.py"``. Standard library only, and
nothing from seorap: any language that reads and writes lines of JSON can do the same.

What it does with a document: every sentence of six characters or more is a candidate fact. A
sentence sharing at least half of its character bigrams with an active fact replaces that fact's
text (an ``update``; the old text is kept as a version); any other sentence is added (``create``).
Its search ranks active facts by the share of the query's bigrams they contain.
"""

import json
import re
import sys

SIMILAR = 0.5


def bigrams(text):
    text = re.sub(r"\s+", "", text)
    return {text[i : i + 2] for i in range(len(text) - 1)}


def share(a, b):
    ga = bigrams(a)
    return len(ga & bigrams(b)) / len(ga) if ga else 0.0


class Memory:
    def __init__(self):
        self.facts = {}  # id -> {"text", "active", "versions", "last_document"}

    def write(self, document):
        ops = []
        for sentence in re.split(r"(?<=[.!?。])\s+|\n+", document["text"]):
            sentence = sentence.strip()
            if len(sentence) < 6:
                continue
            best, best_share = None, 0.0
            for fid, fact in self.facts.items():
                s = share(sentence, fact["text"]) if fact["active"] else 0.0
                if s > best_share:
                    best, best_share = fid, s
            if best is not None and best_share >= SIMILAR:
                fact = self.facts[best]
                if fact["text"] == sentence:
                    ops.append({"operation": "reinforce", "fact_id": best, "text": sentence})
                    continue
                fact["versions"].append(fact["text"])
                fact["text"], fact["last_document"] = sentence, document["id"]
                ops.append({"operation": "update", "fact_id": best, "text": sentence})
            else:
                fid = f"m{len(self.facts) + 1}"
                self.facts[fid] = {
                    "text": sentence,
                    "active": True,
                    "versions": [],
                    "last_document": document["id"],
                }
                ops.append({"operation": "create", "fact_id": fid, "text": sentence})
        return {"operations": ops}

    def list_facts(self):
        return {"facts": [{"id": fid, **fact} for fid, fact in self.facts.items()]}

    def search(self, query, k):
        ranked = sorted(
            ((share(query, f["text"]), fid) for fid, f in self.facts.items() if f["active"]),
            key=lambda p: (-p[0], p[1]),
        )
        return {"hits": [{"id": fid, "score": round(s, 6)} for s, fid in ranked[:k]]}


HELLO = {
    "protocol": 1,
    "name": "jsonl-example",
    "version": "1",
    "capabilities": {
        "reports_operations": True,
        "keeps_history": True,
        "takes_dates": False,
        "own_search": True,
        "updates_at_write": True,
    },
}


def main():
    memory = Memory()
    for line in sys.stdin:
        request = json.loads(line)
        method, params = request["method"], request.get("params", {})
        if method == "hello":
            result = HELLO
        elif method == "open":
            memory, result = Memory(), {}
        elif method == "write":
            result = memory.write(params["document"])
        elif method == "facts":
            result = memory.list_facts()
        elif method == "search":
            result = memory.search(params["query"], params["k"])
        elif method == "close":
            print(json.dumps({"id": request["id"], "result": {}}), flush=True)
            return
        else:
            print(
                json.dumps({"id": request["id"], "error": f"unknown method {method}"}), flush=True
            )
            continue
        print(json.dumps({"id": request["id"], "result": result}, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
