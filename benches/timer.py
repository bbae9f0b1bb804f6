#!/usr/bin/env python3
"""Times one command for benches/run.sh: its stdout and stderr go to files,
and one line says "wall_s maxrss_kb exit user_s sys_s" (peak RSS and CPU time
from wait4's rusage of the child).

    timer.py OUT CWD CMD...   time CMD once (a fresh interpreter per run)
    timer.py --serve          time many: read requests on stdin, one reply line each

A request is a line with the number of arguments, then one argument a line
(OUT, CWD, CMD...). Serving keeps one warm interpreter for a whole benchmark:
started afresh for every run, the interpreter's first spawn was slower by
about 0.7 ms (a cold `subprocess` path and page tables), which went into every
wall time and was most of the difference for pairs that take milliseconds.
"""
import os
import subprocess
import sys
import time


def measure(out, cwd, cmd):
    with open(out, "wb") as so, open(out + ".stderr", "wb") as se:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=so, stderr=se)
        _, status, ru = os.wait4(p.pid, 0)
        t1 = time.perf_counter()
    if os.WIFEXITED(status):
        code = os.WEXITSTATUS(status)
    else:
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else 255
    p.returncode = code
    rss_kb = ru.ru_maxrss // 1024 if sys.platform == "darwin" else ru.ru_maxrss
    return f"{t1 - t0:.6f} {rss_kb} {code} {ru.ru_utime:.3f} {ru.ru_stime:.3f}"


def serve():
    while True:
        count = sys.stdin.readline()
        if not count:
            return
        args = [sys.stdin.readline().rstrip("\n") for _ in range(int(count))]
        if len(args) < 3:
            sys.exit(f"timer.py: a request needs OUT, CWD and a command, got {args!r}")
        print(measure(args[0], args[1], args[2:]), flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        serve()
    elif len(sys.argv) >= 4:
        print(measure(sys.argv[1], sys.argv[2], sys.argv[3:]))
    else:
        sys.exit(__doc__)
