#!/usr/bin/env python3
"""A deliberately broken JSON-lines memory system, for seorap's fault tests (docs/systems.md).

``python examples/broken_memory.py MODE``; it answers the handshake and ``open`` correctly, then
misbehaves on the first ``write`` as MODE says: ``crash`` (exits with an error), ``notjson``
(prints a line that is not JSON), ``wrongid`` (answers another request's id), ``silent`` (never
answers), ``error`` (answers with an error object); ``oldprotocol`` fails the handshake.
"""

import json
import sys
import time


def reply(rid, result):
    print(json.dumps({"id": rid, "result": result}), flush=True)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "crash"
    for line in sys.stdin:
        request = json.loads(line)
        rid, method = request["id"], request["method"]
        if method == "hello":
            caps = {"reports_operations": True}
            reply(
                rid,
                {
                    "protocol": 0 if mode == "oldprotocol" else 1,
                    "name": "broken",
                    "capabilities": caps,
                },
            )
        elif method in ("open", "close"):
            reply(rid, {})
            if method == "close":
                return
        elif mode == "crash":
            print("broken_memory: the store is corrupt", file=sys.stderr, flush=True)
            sys.exit(3)
        elif mode == "notjson":
            print("Traceback (most recent call last): oops", flush=True)
        elif mode == "wrongid":
            reply(rid + 100, {"operations": []})
        elif mode == "silent":
            time.sleep(3600)
        elif mode == "error":
            print(json.dumps({"id": rid, "error": "disk quota exceeded"}), flush=True)
        else:
            reply(rid, {"operations": [], "facts": []})


if __name__ == "__main__":
    main()
