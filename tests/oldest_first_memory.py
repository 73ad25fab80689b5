#!/usr/bin/env python3
"""A test memory system on seorap's JSON-lines protocol, run as ``exec:python oldest_first_memory.py``.

Every sentence of a document becomes a fact (ids m1, m2, ... in writing order); nothing is ever
changed. Its own search ignores the query and returns the active facts oldest first, scored
1, 1/2, 1/3 ...: a ranking seorap's hybrid retrieval would not give, so a test can tell whose
ranking answered. ``--no-search``: it declares no search (seorap's retrieval reads it).
"""

import json
import re
import sys

SEARCH = "--no-search" not in sys.argv[1:]
HELLO = {
    "protocol": 1,
    "name": "oldest-first" if SEARCH else "no-search",
    "version": "1",
    "capabilities": {"reports_operations": True, "own_search": SEARCH, "updates_at_write": False},
}


def main():
    facts = []
    for line in sys.stdin:
        request = json.loads(line)
        method, params = request["method"], request.get("params", {})
        result = {}
        if method == "hello":
            result = HELLO
        elif method == "open":
            facts = []
        elif method == "write":
            ops = []
            for sentence in re.split(r"(?<=[.!?])\s+|\n+", params["document"]["text"]):
                if sentence.strip():
                    facts.append(sentence.strip())
                    ops.append({"operation": "create", "fact_id": f"m{len(facts)}"})
            result = {"operations": ops}
        elif method == "facts":
            result = {"facts": [{"id": f"m{n + 1}", "text": t} for n, t in enumerate(facts)]}
        elif method == "search":
            hits = [{"id": f"m{n + 1}", "score": round(1 / (n + 1), 6)} for n in range(len(facts))]
            result = {"hits": hits[: params["k"]]}
        print(json.dumps({"id": request["id"], "result": result}, ensure_ascii=False), flush=True)
        if method == "close":
            return


if __name__ == "__main__":
    main()
