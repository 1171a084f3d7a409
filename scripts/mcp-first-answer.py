#!/usr/bin/env python3
"""Time to first answer through MCP: `winnow mcp` started on a copy of a tree
that has never been indexed, as an agent starts it, with a `context` call sent
as soon as the session is initialized; then a second call one second later,
during the background upgrade to the full tier; then, still during it, a
`winnow context` process of its own on the same tree, which must wait its
turn at the index's writers' lock.

  scripts/mcp-first-answer.py [-n RUNS] TREE TASKFILE BINARY [BINARY ...]

For each run it prints when the quick index was ready (the server's summary
on stderr), when the first answer came and from which tier, how long the
second call and the other process took, when the full index was ready, and the server's CPU time
(user + sys, with its git children, without the other process). The binaries take turns run by run;
before each run the copy's .winnow is deleted. Then p50 and max per binary,
and the load average around.
"""
import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time


def run_once(binary, tree, task):
    shutil.rmtree(os.path.join(tree, ".winnow"), ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.Popen([binary, "mcp", "--repo", tree], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = {}

    def read_stderr():
        for raw in proc.stderr:
            line = raw.decode(errors="replace")
            if "full index ready" in line:
                seen["full"] = time.monotonic() - start
            elif "quick tier" in line and "indexed" in line:
                seen["quick"] = time.monotonic() - start
            elif "winnow mcp:" in line and "indexed" not in line and "answering" not in line:
                sys.stderr.write(line)

    threading.Thread(target=read_stderr, daemon=True).start()

    def send(msg):
        proc.stdin.write((json.dumps(msg) + "\n").encode())
        proc.stdin.flush()

    def receive(want):
        while True:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit(f"{binary}: the server closed stdout")
            msg = json.loads(line)
            if msg.get("id") == want:
                if "error" in msg:
                    raise SystemExit(f"{binary}: {msg['error']}")
                return msg["result"]

    def context(call_id):
        send({"jsonrpc": "2.0", "id": call_id, "method": "tools/call",
              "params": {"name": "context", "arguments": {"task": task}}})
        result = receive(call_id)
        text = "".join(c.get("text", "") for c in result.get("content", []))
        if result.get("isError"):
            raise SystemExit(f"{binary}: context failed: {text[:300]}")
        return text

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                     "clientInfo": {"name": "mcp-first-answer", "version": "1"}}})
    receive(1)
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    text = context(2)
    first = time.monotonic() - start
    tier = text.split('index="', 1)[1].split('"', 1)[0] if 'index="' in text else "?"
    time.sleep(1)
    t = time.monotonic()
    context(3)
    second = time.monotonic() - t
    t = time.monotonic()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.devnull, "w") as null:
        other = subprocess.run([binary, "context", "--repo", tree, "-"], input=task.encode(),
                               stdout=null, stderr=subprocess.PIPE)
    process = time.monotonic() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    other_cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
    if other.returncode != 0:
        raise SystemExit(f"{binary} context: {other.stderr.decode(errors='replace')}")
    upgrading = "full" not in seen
    while "full" not in seen and time.monotonic() - start < 600 and proc.poll() is None:
        time.sleep(0.05)
    proc.stdin.close()
    proc.wait(timeout=120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime - other_cpu
    return {"quick": seen.get("quick", float("nan")), "first": first, "tier": tier,
            "second": second, "process": process, "upgrading": upgrading,
            "full": seen.get("full", float("nan")), "cpu": cpu}


def percentile(values, p):
    """The p-th percentile, by nearest rank."""
    values = sorted(values)
    return values[max(1, math.ceil(p * len(values))) - 1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=5, help="runs of each binary (default 5)")
    ap.add_argument("tree")
    ap.add_argument("taskfile")
    ap.add_argument("binaries", nargs="+")
    args = ap.parse_args()
    if not os.path.isdir(args.tree):
        sys.exit(f"{sys.argv[0]}: no tree {args.tree}")
    task = open(args.taskfile).read()
    copy = tempfile.mkdtemp()
    try:
        # The tree without its index, as tar copies it (symlinks kept).
        with tempfile.TemporaryFile() as buf:
            with tarfile.open(fileobj=buf, mode="w") as tar:
                tar.add(args.tree, arcname=".", filter=lambda ti: None if ti.name.startswith("./.winnow") else ti)
            buf.seek(0)
            with tarfile.open(fileobj=buf) as tar:
                tar.extractall(copy, filter="tar")
        print("load before: " + " ".join(open("/proc/loadavg").read().split()[:3]))
        results = {b: [] for b in args.binaries}
        for _ in range(args.n):
            for b in args.binaries:
                r = run_once(b, copy, task)
                results[b].append(r)
                print(f"  {b}: quick index {r['quick']:.2f} s, first answer {r['first']:.2f} s ({r['tier']}), "
                      f"a call during the upgrade {r['second']:.2f} s, a winnow context process "
                      f"{r['process']:.2f} s{'' if r['upgrading'] else ' (after the upgrade)'}, "
                      f"full index {r['full']:.2f} s, CPU {r['cpu']:.1f} s")
        print("load after: " + " ".join(open("/proc/loadavg").read().split()[:3]))
        for b, rs in results.items():
            line = f"{b}: {len(rs)} runs"
            for key, name in (("first", "first answer"), ("second", "call during the upgrade"),
                              ("process", "winnow context process"), ("full", "full index"), ("cpu", "CPU")):
                vals = [r[key] for r in rs]
                line += f", {name} p50 {percentile(vals, .5):.2f} s max {max(vals):.2f} s"
            print(line)
    finally:
        shutil.rmtree(copy, ignore_errors=True)


if __name__ == "__main__":
    main()
