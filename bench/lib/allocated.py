"""Bytes a JVM's threads allocated in windows of time, from a recording of bench/lib/allocation.jfc (each thread's
allocated bytes every 100 ms), for bench/service-cpu-ab.sh: each thread's count at the window's end minus at its
start, read between the two samples around each moment, summed over the threads.

  python3 bench/lib/allocated.py RECORDING.jfr START_NS END_NS [START_NS END_NS ...]
      one line per window: the bytes allocated (times as from date +%s%N)
"""
import bisect
import json
import subprocess
import sys
from datetime import datetime


def nanos(stamp):
    # "2026-11-28T15:25:20.327719424Z": datetime keeps microseconds, the rest is added back.
    whole, fraction = stamp.rstrip("Z").split(".")
    seconds = datetime.fromisoformat(whole + "+00:00").timestamp()
    return int(seconds) * 1_000_000_000 + int(fraction.ljust(9, "0")[:9])


def at(series, moment):
    """The thread's allocated bytes at moment, linear between the samples around it."""
    times = [t for t, _ in series]
    i = bisect.bisect_left(times, moment)
    if i == 0:
        return series[0][1]
    if i == len(series):
        return series[-1][1]
    (t0, v0), (t1, v1) = series[i - 1], series[i]
    return v0 + (v1 - v0) * (moment - t0) / (t1 - t0)


text = subprocess.run(["jfr", "print", "--json", "--events", "jdk.ThreadAllocationStatistics", sys.argv[1]],
                      capture_output=True, text=True, check=True).stdout
threads = {}
for event in json.loads(text)["recording"]["events"]:
    values = event["values"]
    threads.setdefault(values["thread"]["javaThreadId"], []).append((nanos(values["startTime"]), values["allocated"]))
for series in threads.values():
    series.sort()
windows = [int(v) for v in sys.argv[2:]]
for start, end in zip(windows[0::2], windows[1::2]):
    print(round(sum(at(s, end) - at(s, start) for s in threads.values())))
