"""The ratio table of bench/run-sql-vs-pgbench.sh and bench/mcp-vs-reference.sh.

Reads measurements, one a line: round, statement, clients, side, calls/s, then any number of
name=milliseconds, the CPU per call of a process (tab-separated; lines starting with # are notes,
printed as they are). For each baseline side and statement it prints the median of the per-round
ratios (the service's rate / the baseline's, both from the same round) and both medians of the rates;
with --check it exits 3 when a ratio is below half its goal. A second table gives, for every side and
statement, the median CPU per call of each process named by --cpu, in that order.

  ratio-table.py FILE --clients "1 8" --statement count="SELECT count(*) FROM track" ...
      --baseline plain="÷ pgbench -M prepared" ... --goal plain:count=0.5 ... --note "..." [--check]
      --cpu service=service --cpu postgres=PostgreSQL --cpu client="client (hey, pgbench)" --service "REST run_sql"
"""
import argparse
import statistics
import sys
from collections import defaultdict


def pairs(values):
    return dict(value.split("=", 1) for value in values)


parser = argparse.ArgumentParser()
parser.add_argument("file")
parser.add_argument("--clients", required=True)
parser.add_argument("--statement", action="append", default=[])
parser.add_argument("--baseline", action="append", default=[])
parser.add_argument("--goal", action="append", default=[])
parser.add_argument("--note", action="append", default=[])
parser.add_argument("--row", default="{baseline} {statement}")
parser.add_argument("--unit", default="clients")
parser.add_argument("--cpu", action="append", default=[])
parser.add_argument("--service", default="the service")
parser.add_argument("--check", action="store_true")
args = parser.parse_args()

clients = args.clients.split()
statements = pairs(args.statement)
unit_of = lambda c: args.unit if c != "1" or args.unit != "clients" else "client"
baselines = pairs(args.baseline)
goals = {key: float(value) for key, value in pairs(args.goal).items()}

rate = {}
cpu_ms = defaultdict(list)  # (statement, clients, side, process) -> ms per call, one per round
notes = list(args.note)
for line in open(args.file):
    if line.startswith("#"):
        notes.append(line[1:].strip())
        continue
    r, s, c, side, value, *cpu = line.rstrip("\n").split("\t")
    rate[(r, s, c, side)] = float(value)
    for process, ms in (field.split("=", 1) for field in cpu):
        cpu_ms[(s, c, side, process)].append(float(ms))

# Only the statements measured (a --quick run leaves some out).
statements = {s: label for s, label in statements.items() if any(k[1] == s for k in rate)}
for note in notes:
    print(note)
print()
print("| comparison | " + " | ".join(f"{c} {unit_of(c)}" for c in clients) + " |")
print("|---|" + "---|" * len(clients))
failures = []
for base, base_label in baselines.items():
    for s, label in statements.items():
        cells = []
        for c in clients:
            rounds = sorted({k[0] for k in rate if k[1] == s and k[2] == c and k[3] == base})
            ratios = [rate[(r, s, c, "service")] / rate[(r, s, c, base)] for r in rounds]
            median = statistics.median(ratios)
            service = statistics.median(rate[(r, s, c, "service")] for r in rounds)
            baseline = statistics.median(rate[(r, s, c, base)] for r in rounds)
            cells.append(f"**{median:.2f}** ({service:.0f} / {baseline:.0f})")
            goal = goals.get(f"{base}:{s}")
            if goal and median < goal / 2:
                failures.append(f"{label} {base_label}, {c} {args.unit}: {median:.2f} < floor {goal / 2:.2f} (goal {goal})")
        print(f"| {args.row.format(baseline=base_label, statement=label)} | " + " | ".join(cells) + " |")
print()
print("cells: median of the per-round ratios (median calls/s of the service / of the baseline)")
cpu_labels = pairs(args.cpu)
if cpu_ms and cpu_labels:
    print()
    print("| CPU per call, ms: " + " / ".join(cpu_labels.values()) + " | "
          + " | ".join(f"{c} {unit_of(c)}" for c in clients) + " |")
    print("|---|" + "---|" * len(clients))
    sides = {"service": args.service, **{base: label.lstrip("÷ ") for base, label in baselines.items()}}
    for side, side_label in sides.items():
        for s, label in statements.items():
            cells = []
            for c in clients:
                parts = [cpu_ms.get((s, c, side, process)) for process in cpu_labels]
                total = sum(statistics.median(p) for p in parts if p)
                cells.append(" / ".join(f"{statistics.median(p):.2f}" if p else "–" for p in parts) + f" ({total:.2f})")
            print(f"| {side_label}, {label} | " + " | ".join(cells) + " |")
    print()
    print("cells: median over the rounds of each process's CPU time (user + system) during a measurement ÷ its calls"
          " (their sum)")
if args.check:
    if failures:
        print("REGRESSION: below half the goal:\n  " + "\n  ".join(failures))
        sys.exit(3)
    print("check passed: every ratio is at least half its goal")
