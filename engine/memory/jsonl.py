"""``--system exec:COMMAND``: a memory system in any language, over JSON lines (docs/systems.md).

seorap starts COMMAND once per (run, trajectory) — a fresh process is a fresh, isolated memory —
and speaks one JSON object per line on its stdin; the program answers each request with one JSON
object per line on its stdout (stderr is free for its own logging, kept in the last lines of an
error). Requests carry an ``id``; the reply carries the same ``id`` and either ``result`` or
``error``. The first request is ``hello`` (the handshake: protocol version, name, capabilities).

Faults are one located sentence (:class:`SystemFault`): a command that cannot start, exits, prints
something that is not JSON (or not UTF-8, or a line longer than ``exec_line_max``), answers another
id, or is silent longer than the silence limit of model streams (``timeout_s``). The program runs in
a process group of its own; closing, a fault and stopping (Ctrl+C, a cancel) end the whole group.
"""

from __future__ import annotations

import json
import queue
import shlex
import threading
from typing import Any

from seorap.engine.errors import why
from seorap.engine.memory.foreign import SystemFault
from seorap.engine.memory.interface import (
    PROTOCOL_VERSION,
    Capabilities,
    DocumentIn,
    HeldFact,
    ReportedOperation,
)
from seorap.engine.memory.pipes import (
    LINE_MAX,
    Garbled,
    StderrTail,
    end_group,
    popen_group,
    pump_replies,
    wait_exit,
)
from seorap.engine.untrusted import visible

HELLO_S = 30.0
"""How long a program may take to answer the handshake (it may load a model)."""

NAME_MAX = 64
"""Longest name or version a program may give itself in ``hello``."""

CLOSE_S = 2.0
"""How long a program may take to exit after ``close`` before its process group is ended."""


class Channel:
    """One running program: requests out on stdin, replies in from stdout, one at a time. Its
    output is read as bytes (engine/memory/pipes.py); it runs in a process group of its own, and
    the whole group is ended when the channel closes, fails or is cancelled."""

    def __init__(
        self, argv: list[str], label: str, silence_s: float, line_max: int = LINE_MAX
    ) -> None:
        self.label = label
        self.silence_s = silence_s
        self.next_id = 0
        self.ended = False
        self._ending = threading.Lock()
        try:
            self.proc = popen_group(argv)
        except OSError as exc:
            raise SystemFault(f"{label}: cannot start {argv[0]!r}: {why(exc)}") from None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.stderr = StderrTail(self.proc.stderr)
        self.lines: queue.Queue[str | Garbled | None] = queue.Queue()
        threading.Thread(
            target=pump_replies,
            args=(self.proc.stdout, self.lines, line_max),
            daemon=True,
        ).start()

    def call(self, method: str, params: dict, timeout_s: float | None = None) -> dict:
        """Send one request and wait for its reply; any fault raises one SystemFault sentence
        (the program is then ended, with everything it started)."""
        self.next_id += 1
        rid = self.next_id
        request = json.dumps({"id": rid, "method": method, "params": params}, ensure_ascii=False)
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(request.encode("utf-8") + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._fault(f"stopped before the {method} request") from None
        limit = timeout_s or self.silence_s
        try:
            line = self.lines.get(timeout=limit)
        except queue.Empty:
            self.kill()
            raise SystemFault(
                f"{self.label}: no reply to {method} within {limit:g} s (the silence limit, "
                "timeout_s); the program was stopped"
            ) from None
        if line is None:
            raise self._fault(f"exited during {method}")
        if isinstance(line, Garbled):
            self.kill()
            raise SystemFault(
                f"{self.label}: {line.sentence} while answering {method}; the program was stopped"
                + self._tail()
            )
        return self._reply(line, rid, method)

    def _reply(self, line: str, rid: int, method: str) -> dict[str, Any]:  # a JSON object
        try:
            reply = json.loads(line)
        except ValueError:
            raise SystemFault(
                f"{self.label}: answered {method} with a line that is not JSON: {line.strip()[:80]!r}"
            ) from None
        if not isinstance(reply, dict):
            raise SystemFault(f"{self.label}: answered {method} with JSON that is not an object")
        if reply.get("id") != rid:
            raise SystemFault(
                f"{self.label}: answered request {rid} ({method}) with id {reply.get('id')!r}"
            )
        if "error" in reply:
            raise SystemFault(
                f"{self.label}: {method} failed: {visible(str(reply['error'])[:200])}"
            )
        result = reply.get("result")
        if not isinstance(result, dict):
            raise SystemFault(f"{self.label}: answered {method} without a result object")
        return result

    def _fault(self, what: str) -> SystemFault:
        exited = wait_exit(self.proc, 1.0)
        self.kill()  # its exit code, when it had exited, stays what it was
        code = self.proc.returncode if exited else None
        status = f" (exit code {code})" if code is not None else ""
        return SystemFault(f"{self.label}: the program {what}{status}" + self._tail())

    def _tail(self) -> str:
        self.stderr.thread.join(timeout=1.0)  # what it wrote before it ended is read to the end
        tail = self.stderr.text()
        return f": {tail}" if tail else ""

    def kill(self) -> None:
        """End the program and everything it started, at once (once: after the program is reaped
        its pid, the group's id, may in time name someone else's group)."""
        with self._ending:
            if not self.ended:
                self.ended = True
                end_group(self.proc)

    def close(self) -> None:
        """Ask the program to close, give it :data:`CLOSE_S` to exit, then end its whole group
        (a process it started and left behind does not outlive the run)."""
        try:
            if self.proc.returncode is None:
                self.call("close", {}, timeout_s=min(self.silence_s, 5.0))
        except SystemFault:
            pass
        finally:
            try:
                if self.proc.stdin is not None:
                    self.proc.stdin.close()
            except OSError:
                pass
            wait_exit(self.proc, CLOSE_S)
            self.kill()


def _argv(command: str) -> list[str]:
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise SystemFault(f"exec:{command}: the command cannot be read: {exc}") from None
    if not argv:
        raise SystemFault("exec: names no command; give one, e.g. exec:'python my_memory.py'")
    return argv


def hello(channel: Channel) -> dict:
    """The handshake: the program names itself and declares its capabilities."""
    result = channel.call("hello", {"protocol": PROTOCOL_VERSION}, timeout_s=HELLO_S)
    if result.get("protocol") != PROTOCOL_VERSION:
        raise SystemFault(
            f"{channel.label}: speaks protocol {result.get('protocol')!r}; seorap speaks "
            f"{PROTOCOL_VERSION} (docs/systems.md)"
        )
    if not isinstance(result.get("capabilities", {}), dict):
        raise SystemFault(f"{channel.label}: its hello gave capabilities that are not an object")
    for key in ("name", "version"):  # the name starts every run id; both are shown and stored
        value = str(result.get(key) or "")
        if len(value) > NAME_MAX or visible(value) != value:
            raise SystemFault(
                f"{channel.label}: its hello gave a {key} of {len(value)} characters that is not "
                f"plain text of at most {NAME_MAX}: {value[:40]!r}"
            )
    return result


class ExecSystem:
    """A program speaking the JSON-lines protocol (one process per memory)."""

    def __init__(self, command: str, silence_s: float = 120.0, line_max: int = LINE_MAX) -> None:
        self.command = command
        self.argv = _argv(command)
        self.label = f"system exec:{command}"
        self.silence_s = silence_s
        self.line_max = line_max
        probe = self._channel()  # the handshake, once, before any work
        try:
            info = hello(probe)
        finally:
            probe.close()
        self.name = str(info.get("name") or "exec")
        self.version = str(info.get("version") or "")
        self.capabilities = Capabilities.from_dict(info.get("capabilities"))

    def spec(self) -> dict:
        return {"kind": "exec", "command": self.command, "version": self.version}

    def _channel(self) -> Channel:
        return Channel(self.argv, self.label, self.silence_s, self.line_max)

    def open(self, run_id: str, trajectory_id: str) -> ExecMemory:
        channel = self._channel()
        try:
            hello(channel)
            channel.call("open", {"run_id": run_id, "trajectory_id": trajectory_id})
        except BaseException:
            channel.kill()
            raise
        return ExecMemory(channel)


class ExecMemory:
    def __init__(self, channel: Channel) -> None:
        self.channel = channel

    def write(self, document: DocumentIn) -> list[ReportedOperation] | None:
        params = {
            "document": {
                "id": document.id,
                "text": document.text,
                "date": document.date,
                "author": document.author,
            }
        }
        ops = self.channel.call("write", params).get("operations")
        if ops is None:
            return None
        if not isinstance(ops, list) or not all(isinstance(o, dict) for o in ops):
            raise SystemFault(f"{self.channel.label}: write gave operations that are not a list")
        return [
            ReportedOperation(
                str(o.get("operation", "")), str(o.get("fact_id", "")), str(o.get("text", ""))
            )
            for o in ops
        ]

    def facts(self) -> list[HeldFact]:
        rows = self.channel.call("facts", {}).get("facts")
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise SystemFault(f"{self.channel.label}: facts gave no list of fact objects")
        return [
            HeldFact(
                id=str(r.get("id", "")),
                text=r.get("text") if isinstance(r.get("text"), str) else "",
                active=bool(r.get("active", True)),
                confidence=_number(r.get("confidence")),
                versions=[str(v) for v in r.get("versions") or []],
                last_document=r.get("last_document"),
            )
            for r in rows
        ]

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        hits = self.channel.call("search", {"query": query, "k": k}).get("hits")
        if not isinstance(hits, list) or not all(isinstance(h, dict) for h in hits):
            raise SystemFault(f"{self.channel.label}: search gave no list of hit objects")
        return [(str(h.get("id", "")), _number(h.get("score")) or 0.0) for h in hits][:k]

    def close(self) -> None:
        self.channel.close()

    def cancel(self) -> None:
        self.channel.kill()


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
