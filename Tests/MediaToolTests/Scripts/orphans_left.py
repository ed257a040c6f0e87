#!/usr/bin/python3
"""Runs the command it is given as a child subreaper (prctl PR_SET_CHILD_SUBREAPER), as a
container's first process is: whatever the command leaves running or unreaped when it exits
becomes this process's child. Passes on the command's output and exit status, and adds a last
line to standard error: `orphans: N`, the processes left, alive or not."""
import ctypes
import os
import subprocess
import sys

PR_SET_CHILD_SUBREAPER = 36
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    sys.exit(f"orphans_left: prctl failed: {os.strerror(ctypes.get_errno())}")
status = subprocess.run(sys.argv[1:]).returncode
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
