#!/usr/bin/python3
"""Runs the command it is given as a child subreaper (prctl PR_SET_CHILD_SUBREAPER), as a
container's first process is: whatever the command leaves running or unreaped when it exits
becomes this process's child. Passes on the command's output and exit status, and adds a last
line to standard error: `orphans: N`, the processes left, alive or not.

  orphans_left.py [--term-when-paused] COMMAND...

--term-when-paused: sends the command SIGTERM once a process it started sleeps in pause() (a
worker in the `hang` trigger), waited for within 30 s."""
import ctypes
import os
import signal
import subprocess
import sys
import time


def descendants_paused(root):
    """Whether a thread of a descendant of `root` sleeps in pause()."""
    pending = [root]
    while pending:
        pid = pending.pop()
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/wchan") as wchan:
                    if pid != root and "pause" in wchan.read():
                        return True
                with open(f"/proc/{pid}/task/{task}/children") as children:
                    pending += [int(child) for child in children.read().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    return False


PR_SET_CHILD_SUBREAPER = 36
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    sys.exit(f"orphans_left: prctl failed: {os.strerror(ctypes.get_errno())}")
arguments = sys.argv[1:]
terminates = arguments[:1] == ["--term-when-paused"]
if terminates:
    arguments = arguments[1:]
process = subprocess.Popen(arguments)
if terminates:
    deadline = time.monotonic() + 30
    while not descendants_paused(process.pid):
        if time.monotonic() > deadline or process.poll() is not None:
            sys.exit("orphans_left: no process of the command paused within 30 s")
        time.sleep(0.01)
    process.send_signal(signal.SIGTERM)
try:
    # Within the test's own deadline, so that the command is not left behind this script.
    status = process.wait(timeout=50)
except subprocess.TimeoutExpired:
    process.kill()
    status = process.wait()
    print("orphans_left: the command took more than 50 s", file=sys.stderr)
left = []
for task in os.listdir("/proc/self/task"):
    with open(f"/proc/self/task/{task}/children") as children:
        left += children.read().split()
print(f"orphans: {len(left)}", file=sys.stderr)
# Reaped here, so that none outlives this test either.
for pid in left:
    try:
        os.kill(int(pid), 9)
        os.waitpid(int(pid), 0)
    except (ProcessLookupError, ChildProcessError):
        pass
sys.exit(status if status >= 0 else 128 - status)
