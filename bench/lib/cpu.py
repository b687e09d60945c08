"""CPU time of the processes a benchmark measures, read from /proc (Linux), for bench/run-sql-vs-pgbench.sh,
bench/mcp-vs-reference.sh (through bench/mcp-client.mjs) and bench/result-memory.sh.

  cpu.py snapshot NAME=PID ...
      prints {"NAME": seconds, ...}: the CPU time (user + system) of each PID and all its descendants,
      including the children they have reaped (cutime/cstime): PostgreSQL's backends that have exited
      (pgbench's, at the end of each run) still count, through the postmaster.
  cpu.py measure OUT NAME=PID ... -- COMMAND ...
      runs COMMAND (its output passes through, its exit status is this one's) and writes to OUT, one line,
      "NAME=seconds ... client=seconds": the CPU each process tree used while COMMAND ran, and COMMAND's own
      (the load generator: hey, pgbench), from its rusage when this process waited for it.
  cpu.py settle PID [--max S] [--window S] [--threshold F]
      waits until the JIT compiler threads of the JVM PID ("C1/C2 CompilerThread*") used less than F (0.05)
      of one CPU over the last S (5) seconds, at most --max seconds (180); prints how long it took and
      whether they settled. Something else must load the service meanwhile (the scripts do).

Hand-written rather than psutil: psutil is not installed with the scripts' other tools, and it reports
neither a tree's reaped children nor threads by name in one call.
"""
import json
import os
import sys
import time

HZ = os.sysconf("SC_CLK_TCK")


def stat_fields(path):
    """The fields of a /proc stat file after the command name (which may hold spaces and parentheses)."""
    with open(path) as f:
        text = f.read()
    return text[text.rindex(")") + 2:].split()


def processes():
    """{pid: (parent pid, CPU seconds of the process and its reaped children)} of every process now."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = stat_fields(f"/proc/{entry}/stat")
        except OSError:  # it ended between the listing and the read
            continue
        # fields[1] is the parent; utime, stime, cutime, cstime are fields 14-17 of stat(5), here 11-14.
        table[int(entry)] = (int(fields[1]), sum(int(v) for v in fields[11:15]) / HZ)
    return table


def tree_seconds(root, table):
    children = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        if pid in table:
            total += table[pid][1]
        todo.extend(children.get(pid, []))
    return total


def snapshot(specs):
    table = processes()
    return {name: tree_seconds(int(pid), table) for name, pid in (spec.split("=", 1) for spec in specs)}


def measure(out, specs, command):
    before = snapshot(specs)
    # posix_spawn, not subprocess: a forked copy of this interpreter costs its child about 70 ms of CPU on
    # this kind of VM, which would be counted as the client's; and wait4 gives that one child's rusage.
    child = os.posix_spawnp(command[0], command, os.environ)
    _, wait_status, usage = os.wait4(child, 0)
    status = os.waitstatus_to_exitcode(wait_status)
    # The client's PostgreSQL backends exit as it does: give the postmaster time to reap them, or a zombie's
    # partly reported times would be read now and the rest counted in the next measurement.
    time.sleep(0.5)
    after = snapshot(specs)
    used = {name: after[name] - before[name] for name in before}
    used["client"] = usage.ru_utime + usage.ru_stime
    with open(out, "w") as f:
        f.write(" ".join(f"{name}={seconds:.3f}" for name, seconds in used.items()) + "\n")
    return status


def compiler_seconds(pid):
    total = 0.0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/comm") as f:
                name = f.read()
            if name.startswith(("C1 Compiler", "C2 Compiler")):
                fields = stat_fields(f"/proc/{pid}/task/{task}/stat")
                total += (int(fields[11]) + int(fields[12])) / HZ
        except OSError:  # compiler threads come and go (-XX:+UseDynamicNumberOfCompilerThreads)
            continue
    return total


def settle(pid, maximum, window, threshold):
    start = time.monotonic()
    samples = [(start, compiler_seconds(pid))]
    while True:
        time.sleep(0.5)
        now = time.monotonic()
        samples.append((now, compiler_seconds(pid)))
        # the latest sample at least a window old
        old = next((s for s in reversed(samples) if now - s[0] >= window), None)
        share = None if old is None else (samples[-1][1] - old[1]) / (now - old[0])
        if share is not None and share < threshold:
            verdict = "settled"
            break
        if now - start >= maximum:
            verdict = "NOT settled"
            break
    share_text = "n/a" if share is None else f"{share * 100:.0f} %"
    print(f"JIT {verdict} after {now - start:.0f} s of load (compiler threads: {share_text} of a CPU over the "
          f"last {window:g} s, limit {threshold * 100:g} %; {samples[-1][1] - samples[0][1]:.1f} s of CPU "
          f"while waiting; at most {maximum:g} s)")


def main(argv):
    command = argv[1] if len(argv) > 1 else ""
    if command == "snapshot":
        print(json.dumps(snapshot(argv[2:])))
    elif command == "measure" and "--" in argv:
        split = argv.index("--")
        sys.exit(measure(argv[2], argv[3:split], argv[split + 1:]))
    elif command == "settle" and len(argv) > 2:
        options = dict(zip(argv[3::2], argv[4::2]))
        settle(int(argv[2]), float(options.get("--max", 180)), float(options.get("--window", 5)),
               float(options.get("--threshold", 0.05)))
    else:
        sys.exit(__doc__)


main(sys.argv)
