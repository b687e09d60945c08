"""The table of bench/cpu-per-call.sh: CPU per call of the service and PostgreSQL next to the anchors', and the goals.

Reads measurements, one a line: round, statement, calls in flight, side, calls/s, then name=milliseconds (CPU per
call of a process), tab-separated; lines starting with # are notes. Sides: mcp (the service over MCP: server=,
postgres=, client=), reference (the reference MCP server: the same), rest (the service over REST: service=,
postgres=, client=) and wrapped (pgbench in the read-only transaction: postgres=, client=).

Goals (issue 31), per round then the median over rounds:
  the service's CPU per MCP call, and per REST call, ÷ the reference server's per MCP call    ≤ 1
  PostgreSQL's per MCP call ÷ under the reference; per REST call ÷ under pgbench's wrapping    ≤ 1.2
With --check it exits 3 when a median ratio is above its goal.

  cpu-table.py FILE [--note TEXT ...] [--check]
"""
import argparse
import statistics
import sys
from collections import defaultdict

LABELS = {"count": "`SELECT count(*) FROM track`", "join": "the top-10 join", "rows1000": "1,000 rows of `track`",
          "rows3503": "3,503 rows of `track`", "ping": "`ping` (no tool, no database: the floor)"}
SERVICE_GOAL = 1.0
POSTGRES_GOAL = 1.2

parser = argparse.ArgumentParser()
parser.add_argument("file")
parser.add_argument("--note", action="append", default=[])
parser.add_argument("--check", action="store_true")
args = parser.parse_args()

cpu = {}  # (round, statement, in flight, side) -> {process: ms}
notes = list(args.note)
for line in open(args.file):
    if line.startswith("#"):
        notes.append(line[1:].strip())
        continue
    r, s, c, side, _rate, *fields = line.rstrip("\n").split("\t")
    cpu[(r, s, c, side)] = {k: float(v) for k, v in (f.split("=", 1) for f in fields)}

keys = sorted({(k[1], k[2]) for k in cpu}, key=lambda sc: (list(LABELS).index(sc[0]) if sc[0] in LABELS else 99,
                                                           int(sc[1])))
rounds = sorted({k[0] for k in cpu})


def med(values):
    return statistics.median(values) if values else float("nan")


def per_round(s, c, side, process):
    return [cpu[(r, s, c, side)][process] for r in rounds if (r, s, c, side) in cpu]


def ratios(s, c, side, process, anchor_side, anchor_process):
    return [cpu[(r, s, c, side)][process] / cpu[(r, s, c, anchor_side)][anchor_process] for r in rounds
            if (r, s, c, side) in cpu and (r, s, c, anchor_side) in cpu and cpu[(r, s, c, anchor_side)][anchor_process]]


def ratio_cell(values, goal, failures, what):
    if not values:
        return "–"
    m = med(values)
    if m > goal:
        failures.append(f"{what}: {m:.2f} > {goal:g}")
    spread = f" ({min(values):.2f}–{max(values):.2f})" if len(values) > 1 else ""
    return f"**{m:.2f}**{spread}"


for note in notes:
    print(note)
print()
print("| call (in flight) | service JVM | PostgreSQL | client | anchor: server | anchor: PostgreSQL "
      f"| service ÷ server (≤ {SERVICE_GOAL:g}) | PostgreSQL ÷ anchor (≤ {POSTGRES_GOAL:g}) |")
print("|---|---|---|---|---|---|---|---|")
failures = []
for s, c in keys:
    label = LABELS.get(s, s)
    for transport, side, server, anchor_pg_side, anchor_name in (
            ("MCP", "mcp", "server", "reference", "reference"), ("REST", "rest", "service", "wrapped", "pgbench")):
        if not per_round(s, c, side, "postgres"):
            continue
        cells = [f"{med(per_round(s, c, side, p)):.3f}" for p in (server, "postgres", "client")]
        anchor_server = per_round(s, c, "reference", "server")
        anchor_pg = per_round(s, c, anchor_pg_side, "postgres")
        cells.append(f"{med(anchor_server):.3f} (node)" if anchor_server else "–")
        cells.append(f"{med(anchor_pg):.3f} ({anchor_name})" if anchor_pg else "–")
        # The service's against the reference's from the same round: both measured minutes apart at most. The ping
        # (--floor) is no goal's call: its ratio is shown, never checked, and it has no PostgreSQL to compare.
        floor = s == "ping"
        cells.append(ratio_cell(ratios(s, c, side, server, "reference", "server"), SERVICE_GOAL,
                                [] if floor else failures, f"{transport} {s} ({c}): service ÷ the reference server"))
        cells.append("–" if floor else ratio_cell(ratios(s, c, side, "postgres", anchor_pg_side, "postgres"),
                                                   POSTGRES_GOAL, failures,
                                                   f"{transport} {s} ({c}): PostgreSQL ÷ {anchor_name}'s"))
        print(f"| {transport} {label} ({c}) | " + " | ".join(cells) + " |")
print()
print("ms of CPU (user + system, from /proc) per call, median over the rounds; ratios: median of the per-round ratios"
      " (lowest–highest). PostgreSQL: the postmaster and every backend. Anchors: the reference MCP server (node) and"
      " its PostgreSQL for MCP; for REST the server anchor is the reference's per MCP call and PostgreSQL's is"
      " pgbench -M prepared running the statement in the service's read-only transaction wrapping.")
if args.check:
    if failures:
        print("ABOVE GOAL:\n  " + "\n  ".join(failures))
        sys.exit(3)
    print("check passed: every ratio is within its goal")
