"""Starts an ``exec:`` system and ends its process group when seorap is gone.

seorap ends a system's group itself on close, error and Ctrl+C (engine/memory/pipes.py), and every
group still alive when the interpreter exits. A process killed outright (``kill -9``, the
out-of-memory killer) runs none of that: without this guardian, the system and what it started
would outlive it. So seorap starts this file (``python -I -S guardian.py LIVE ERR PROGRAM ARGS…``)
as the leader of the system's new group; it starts the program in that group and waits for
whichever comes first:

- the program exits: the guardian exits with the program's status (a signal as the same signal),
  so seorap reads the program's exit as before and ends the group as before;
- the read end ``LIVE`` of a pipe whose write end only seorap holds reaches its end, which the
  kernel does when seorap's process ends however it ends: the guardian ends the whole group.

A program that cannot be started is reported on ``ERR`` (its errno) before the guardian exits,
so seorap raises the same OSError as when it started the program itself.

It runs without the site module and imports only the standard library's ``os``, ``select`` and
``signal`` (started in a few milliseconds), and never imports seorap.
"""

import os
import select
import signal
import sys


def _start(argv: list[str], live: int, err: int) -> int:
    pid = os.fork()
    if pid == 0:  # the program: LIVE is not its business; ERR closes as it execs
        os.close(live)
        os.set_inheritable(err, False)
        try:
            os.execvp(argv[0], argv)
        except OSError as exc:
            os.write(err, str(exc.errno or 0).encode())
        os._exit(127)
    os.close(err)
    return pid


def _leave(status: int) -> None:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def _exited(pid: int) -> int | None:
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return 1 << 8  # cannot happen: it is our only child
    return status if done else None


def _gone(live: int) -> bool:
    """Whether seorap's end of the liveness pipe is closed. Waits a moment: the kernel closes a
    dying process's files one by one, so the program may see its stdin end before LIVE does."""
    ready, _, _ = select.select([live], [], [], 0.05)
    return bool(ready) and not os.read(live, 1)


def _end_group() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.killpg(0, signal.SIGKILL)


def main() -> None:
    live, err = int(sys.argv[1]), int(sys.argv[2])
    pid = _start(sys.argv[3:], live, err)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)  # only the program holds the pipes to seorap
    os.dup2(devnull, 1)
    watched = [live]
    opener = getattr(os, "pidfd_open", None)  # Linux: readable when the program exits
    try:
        watched += [opener(pid)] if opener is not None else []
    except OSError:  # an older kernel: the program's exit is polled
        pass
    wait = None if len(watched) > 1 else 0.5
    while True:
        ready, _, _ = select.select(watched, [], [], wait)
        status = _exited(pid)
        if status is not None:
            if _gone(live):  # the program ended because seorap did (its stdin closed): the rest go
                _end_group()
            _leave(status)
        if live in ready and not os.read(live, 1):  # seorap is gone
            _end_group()


if __name__ == "__main__":
    main()
