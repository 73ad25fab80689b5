#!/usr/bin/env python3
"""A hostile JSON-lines memory system for tests/test_exec_bytes.py: it answers the protocol
correctly except where MODE says, on its first ``write``:

- ``badutf8``: its reply line holds an invalid UTF-8 byte;
- ``noisy``: logs an invalid UTF-8 byte and then 256 KiB to stderr before each reply (a reader
  that stops draining stderr leaves it blocked on a full pipe);
- ``noisycrash``: logs as ``noisy`` (ending with a line holding a terminal escape), then exits 3;
- ``longline``: writes 300 MB without a newline (in 64 KiB pieces: nothing large is held);
- ``bigfact``: lists a fact whose text is 10 MB;
- ``badname`` / ``longname``: names itself with a terminal escape / 10,000 characters;
- ``spawn PIDFILE``: on ``open`` starts three ``sleep`` processes and writes their pids and its
  own to PIDFILE, one a line (they are left running: the group must be ended for them).
"""

import json
import os
import subprocess
import sys

MODE = sys.argv[1]
FACT = "다온헬스케어 백업은 매일 새벽 두 시에 한다."


def send(obj):
    sys.stdout.buffer.write(json.dumps(obj, ensure_ascii=False).encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()


def log_a_lot():
    sys.stderr.buffer.write(b"hostile: bad byte \xff here\n")
    line = ("로그 " * 50 + "\n").encode("utf-8")
    for _ in range(256 * 1024 // len(line) + 1):
        sys.stderr.buffer.write(line)
    sys.stderr.buffer.flush()


def spawn(pidfile):
    kids = [
        subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        for _ in range(3)
    ]
    with open(pidfile, "a", encoding="utf-8") as out:
        for pid in [os.getpid(), *(k.pid for k in kids)]:
            out.write(f"{pid}\n")


def write(rid):
    if MODE == "badutf8":
        sys.stdout.buffer.write(b'{"id": %d, "result": {"operations": ["\xff"]}}\n' % rid)
        sys.stdout.buffer.flush()
        return
    if MODE in ("noisy", "noisycrash"):
        log_a_lot()
        if MODE == "noisycrash":
            sys.stderr.buffer.write(b"hostile: giving up \x1b[31mred\n")
            sys.stderr.buffer.flush()
            sys.exit(3)
    if MODE == "longline":
        piece = b"x" * 65536
        for _ in range(300 * 1024 * 1024 // len(piece)):
            sys.stdout.buffer.write(piece)
        sys.stdout.buffer.write(b"\n")
        sys.stdout.buffer.flush()
        return
    send({"id": rid, "result": {"operations": None}})


def facts(rid):
    text = "가" * (10 * 1000 * 1000) if MODE == "bigfact" else FACT
    send({"id": rid, "result": {"facts": [{"id": "f1", "text": text}]}})


def main():
    for line in sys.stdin:
        request = json.loads(line)
        rid, method = request["id"], request["method"]
        if method == "hello":
            caps = {"reports_operations": False}
            name = {"badname": "evil\x1b[2J", "longname": "n" * 10_000}.get(MODE, "hostile")
            send({"id": rid, "result": {"protocol": 1, "name": name, "capabilities": caps}})
        elif method == "open":
            if MODE == "spawn":
                spawn(sys.argv[2])
            send({"id": rid, "result": {}})
        elif method == "close":
            send({"id": rid, "result": {}})
            return
        elif method == "write":
            write(rid)
        elif method == "facts":
            facts(rid)
        elif method == "search":
            send({"id": rid, "result": {"hits": [{"id": "f1", "score": 1.0}]}})


if __name__ == "__main__":
    main()
