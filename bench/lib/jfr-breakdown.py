"""Where a service's CPU and allocations go, from a JFR recording (docs/benchmarks.md, "Service CPU per call").

  python3 bench/lib/jfr-breakdown.py RECORDING.jfr
      CPU: each execution sample goes to the part of the service or framework of its innermost frame that is not
      the JDK's, Jackson's or Vert.x's JSON (those serve whoever calls them); allocations: the sampled bytes of
      the event-loop threads by innermost non-JDK frame. Record under load with settings=profile, e.g.
      jcmd PID JFR.start settings=profile filename=/tmp/rest.jfr, then JFR.stop after the load.

Needs the JDK's jfr tool on the PATH.
"""
import collections
import re
import subprocess
import sys

PARTS = [
    ("context propagation (SmallRye CP around Mutiny callbacks)",
     r"io\.smallrye\.context|BaseContextPropagationInterceptor|ContextPropagation|ArcContextProvider"
     r"|io\.quarkus\.arc\.impl\.(CurrentManagedContext|RequestContext)|io\.smallrye\.mutiny\.context"),
    ("OpenTelemetry (spans, HTTP instrumentation, MDC)",
     r"io\.opentelemetry|io\.quarkus\.opentelemetry|io\.sqlagent\.trace|ToolCallSpan|StatementSpan|McpCallSpan"),
    ("Micrometer", r"io\.micrometer|io\.quarkus\.micrometer|ToolMetrics|SqlMetrics|io\.sqlagent\.metrics"),
    ("audit", r"io\.sqlagent\.audit"),
    ("statement check (guard, table policy)", r"io\.sqlagent\.sql\.guard|jsqlparser|io\.sqlagent\.sql\.policy"),
    ("plan check", r"PgPlanCheck"),
    ("identity, authentication",
     r"SessionIdentity|CallerResolver|io\.quarkus\.security|io\.quarkus\.vertx\.http\.runtime\.security"
     r"|io\.sqlagent\.security\.(?!UsageLimits)|io\.quarkus\.oidc|io\.smallrye\.jwt"),
    ("limits, fair share", r"UsageLimits|PrincipalShares"),
    ("logging", r"org\.jboss\.log|io\.quarkus\.logging"),
    ("result reading and rendering", r"io\.sqlagent\.sql\.result|PgResults|PgShapes|WrittenJson|QueryResult"),
    ("transaction, connection (sqlagent)", r"io\.sqlagent\.sql\.(run|source|engine)|io\.sqlagent\.CancelSafe"),
    ("SQL client (Vert.x PostgreSQL)", r"io\.vertx\.pgclient|io\.vertx\.sqlclient|io\.vertx\.mutiny\.(sql|pg)client"),
    ("tool executor, argument schema", r"io\.sqlagent\.tool|io\.sqlagent\.jsonschema|io\.sqlagent\.builtin"),
    ("MCP (library, bridge, message check)", r"io\.quarkiverse\.mcp|io\.sqlagent\.mcp"),
    ("REST (RESTEasy Reactive, body)", r"org\.jboss\.resteasy|io\.quarkus\.resteasy|io\.sqlagent\.rest|JsonBodies"),
    ("HTTP edge checks", r"io\.sqlagent\.http"),
    ("Arc (CDI)", r"io\.quarkus\.arc"),
    ("Mutiny operators", r"io\.smallrye\.mutiny"),
    ("Vert.x web, HTTP server", r"io\.vertx\.core\.http|io\.vertx\.ext\.web|io\.quarkus\.vertx\.http|io\.vertx\.core\.net"),
    ("Vert.x core, Netty (event loop, buffers, timers)", r"io\.vertx|io\.netty|io\.quarkus\.vertx"),
]
TRANSPARENT = re.compile(r"^(java|jdk|sun|com\.fasterxml\.jackson|io\.vertx\.core\.json)\.")
JDK = re.compile(r"^(java|jdk|sun)\.")
FRAME = re.compile(r"^[\w$.<>]+\(.*\)\s+line:")
UNITS = {"bytes": 1e-6, "kB": 1e-3, "MB": 1.0, "GB": 1e3}


def events(recording, name):
    text = subprocess.run(["jfr", "print", "--events", name, "--stack-depth", "200", recording],
                          capture_output=True, text=True, check=True).stdout
    event = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(name):
            if event:
                yield event
            event = {"frames": [], "thread": "", "mb": 0.0}
        elif event is None:
            continue
        elif line.startswith(("sampledThread", "eventThread")):
            event["thread"] = line.split("=", 1)[1].strip()
        elif line.startswith("weight ="):
            value, unit = line.split("=", 1)[1].split()
            event["mb"] = float(value) * UNITS[unit]
        elif FRAME.match(line):
            event["frames"].append(line.split("(")[0])
    if event:
        yield event


def part(frames):
    for frame in frames:
        if TRANSPARENT.match(frame):
            continue
        return next((name for name, rx in PARTS if re.search(rx, frame)), "other: " + ".".join(frame.split(".")[:3]))
    return "the JDK alone"


def main(recording):
    samples = list(events(recording, "jdk.ExecutionSample"))
    parts = collections.Counter(part(s["frames"]) for s in samples)
    print(f"CPU: {len(samples)} execution samples, by the innermost frame's part")
    for name, count in parts.most_common():
        print(f"{100 * count / len(samples):6.1f} %  {name}")
    # The first sample of each thread carries everything the thread allocated before the recording: left out.
    seen, allocations = set(), []
    for event in events(recording, "jdk.ObjectAllocationSample"):
        if "eventloop" in event["thread"] and event["thread"] in seen:
            allocations.append(event)
        seen.add(event["thread"])
    total = sum(a["mb"] for a in allocations) or 1.0
    sites = collections.Counter()
    for a in allocations:
        frames = [f for f in a["frames"] if not JDK.match(f)]
        sites[frames[0] if frames else "the JDK alone"] += a["mb"]
    print(f"\nAllocations: {total:.0f} MB sampled on the event loops, by part")
    by_part = collections.Counter()
    for a in allocations:
        by_part[part(a["frames"])] += a["mb"]
    for name, mb in by_part.most_common():
        print(f"{100 * mb / total:6.1f} %  {name}")
    print("\n... by the innermost non-JDK frame")
    for site, mb in sites.most_common(25):
        print(f"{100 * mb / total:6.1f} %  {site}")


if __name__ == "__main__":
    main(sys.argv[1])
