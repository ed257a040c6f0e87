"""Timing and peak memory of whole commands, medians over rounds in which the tools take turns."""
import argparse
import os
import statistics
import subprocess
import tempfile
import time


def run_once(command, stdin=None):
    """(wall seconds, peak resident KiB) of one run, its output thrown away.

    GNU time reads the peak: a child forked from this Python would count the parent's pages too."""
    with open(os.devnull, "wb") as sink, tempfile.NamedTemporaryFile("r") as peak:
        started = time.perf_counter()
        process = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak.name] + command,
                                 stdout=sink, stdin=stdin, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - started
        if process.returncode != 0:
            error = process.stderr.decode(errors="replace").strip()
            raise SystemExit(f"bench: {command[0]} failed ({process.returncode}): {error}")
        return elapsed, int(peak.read().split()[-1])


def compare(tools, runs):
    """tools: {name: command}. Returns {name: (median seconds, median peak KiB)}."""
    samples = {name: [] for name in tools}
    for _ in range(runs):
        for name, command in tools.items():
            samples[name].append(run_once(command))
    return {
        name: (statistics.median(s for s, _ in values), statistics.median(m for _, m in values))
        for name, values in samples.items()
    }


def arguments(description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=5, help="rounds to take the median of (default 5)")
    parser.add_argument("--only", default=None, help="run only the parts whose name starts with this")
    return parser.parse_args()


def table(results):
    width = max(len(name) for name in results) + 2
    print(f"{'tool':<{width}}{'median s':>10}{'peak MiB':>10}")
    for name, (seconds, peak) in results.items():
        print(f"{name:<{width}}{seconds:>10.3f}{peak / 1024:>10.1f}")


def report(results, subject):
    table(results)
    base = results[subject][0]
    for name, (seconds, _) in results.items():
        if name != subject:
            print(f"{subject} is {seconds / base:.1f}x as fast as {name}")
