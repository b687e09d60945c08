// A bare JSON-RPC 2.0 MCP client, the same code against both servers (bench/mcp-vs-reference.sh):
// the reference server over stdio (the only transport it has: one JSON message per line) and the
// service over streamable HTTP (POST /mcp, one keep-alive connection per call in flight). It keeps N
// tools/call requests in flight for a fixed time, alternating the two servers round by round, and
// prints one line per measurement: round, statement, calls in flight, side, calls/s, then the CPU
// milliseconds per call of the server measured (server=), PostgreSQL (postgres=) and this client (client=),
// read through bench/lib/cpu.py. After the warm-up it loads the service until its JIT compilers settle
// (--settle-max seconds at most, 0 not at all; see bench/lib/external-service.sh, settle_jit).
// No SDK on purpose: an SDK's own cost would be counted against both sides; this is the least a client does.
import { execFileSync, spawn } from "node:child_process";
import http from "node:http";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const options = {};
for (let i = 2; i < process.argv.length; i += 2) {
  options[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
}
const statements = JSON.parse(options.statements); // {"name": "SQL", ...}
const clients = options.clients.split(" ").map(Number);
const rounds = Number(options.rounds);
const seconds = Number(options.seconds);
const warmup = Number(options.warmup);
const serviceUrl = new URL(options.service);
const settleMax = Number(options["settle-max"] ?? 0);

const initialize = {
  protocolVersion: "2025-03-26",
  capabilities: {},
  clientInfo: { name: "bench-mcp-client", version: "1" },
};

// --- stdio: the reference server as a child process -------------------------------------------
function stdioServer(command, args) {
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map();
  let nextId = 1;
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line);
    const done = pending.get(message.id);
    if (done) {
      pending.delete(message.id);
      done(message);
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  const notify = (method) => child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method }) + "\n");
  return { child, started, request, notify };
}

// --- streamable HTTP: the service ---------------------------------------------------------------
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function post(body, session) {
  return new Promise((resolve, reject) => {
    const headers = {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
    if (session) headers["Mcp-Session-Id"] = session;
    const req = http.request(
      { agent, method: "POST", host: serviceUrl.hostname, port: serviceUrl.port, path: serviceUrl.pathname, headers },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let message = null;
          if (text.length > 0) {
            // A JSON answer, or one SSE event holding it.
            const json = res.headers["content-type"]?.startsWith("text/event-stream")
              ? text.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5)).join("")
              : text;
            message = JSON.parse(json);
          }
          resolve({ status: res.statusCode, session: res.headers["mcp-session-id"], message });
        });
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}
async function httpSession() {
  const init = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: initialize });
  if (init.status !== 200 || !init.session) throw new Error(`initialize: HTTP ${init.status}`);
  await post({ jsonrpc: "2.0", method: "notifications/initialized" }, init.session);
  let nextId = 1;
  return {
    request: async (method, params) =>
      (await post({ jsonrpc: "2.0", id: nextId++, method, params }, init.session)).message,
  };
}

// --- the load: N calls in flight for a time, every answer checked --------------------------------
function checked(message, side) {
  if (!message || message.error || message.result?.isError) {
    throw new Error(`${side} answered with an error: ${JSON.stringify(message).slice(0, 500)}`);
  }
}
async function load(call, side, inFlight, forSeconds) {
  const until = performance.now() + forSeconds * 1000;
  let calls = 0;
  const worker = async () => {
    while (performance.now() < until) {
      checked(await call(), side);
      calls++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { rate: calls / ((performance.now() - start) / 1000), calls };
}

const reference = stdioServer(options["reference-command"], JSON.parse(options["reference-args"]));
const first = await reference.request("initialize", initialize);
const referenceReadyMs = Number(process.hrtime.bigint() - reference.started) / 1e6;
reference.notify("notifications/initialized");
checked(first, "reference");
const rssAfterStart = readFileSync(`/proc/${reference.child.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)[1];
const service = await httpSession();

// A statement given as null is MCP's own `ping` on both sides: no tool, no database, each side's transport and
// protocol alone (the floor under any tools/call; cpu-per-call.sh --floor).
const sides = {
  reference: (sql) => () =>
    sql === null ? reference.request("ping", {}) : reference.request("tools/call", { name: "query", arguments: { sql } }),
  service: (sql) => () =>
    sql === null ? service.request("ping", {}) : service.request("tools/call", { name: "run_sql", arguments: { sql } }),
};
for (const [name, sql] of Object.entries(statements)) {
  for (const side of Object.keys(sides)) {
    await load(sides[side](sql), side, 8, warmup);
  }
}
if (settleMax > 0) {
  // The service, every statement in turn, 8 in flight, until bench/lib/cpu.py settle has seen its JIT idle.
  const settler = spawn("python3", ["bench/lib/cpu.py", "settle", options["service-pid"], "--max", String(settleMax)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let verdict = "";
  settler.stdout.on("data", (chunk) => (verdict += chunk));
  let settled = false;
  const exited = new Promise((resolve) => settler.on("exit", resolve)).then(() => (settled = true));
  while (!settled) {
    for (const sql of Object.values(statements)) {
      await load(sides.service(sql), "service", 8, 1);
    }
  }
  await exited;
  console.log(`# ${verdict.trim()}`);
  console.error(verdict.trim());
} else {
  console.log("# JIT settling off: measured after the fixed warm-up alone");
}
console.log(`# reference ready (initialize answered) in ${referenceReadyMs.toFixed(0)} ms; RSS after start ${rssAfterStart} kB`);
// CPU seconds so far of the server measured and PostgreSQL (bench/lib/cpu.py snapshot), and of this client.
function cpu(side) {
  const server = side === "service" ? options["service-pid"] : String(reference.child.pid);
  const trees = JSON.parse(
    execFileSync("python3", ["bench/lib/cpu.py", "snapshot", `server=${server}`, `postgres=${options["postgres-pid"]}`]),
  );
  const own = process.cpuUsage();
  return { ...trees, client: (own.user + own.system) / 1e6 };
}
for (let round = 1; round <= rounds; round++) {
  for (const [name, sql] of Object.entries(statements)) {
    for (const inFlight of clients) {
      const order = round % 2 === 1 ? ["service", "reference"] : ["reference", "service"];
      for (const side of order) {
        const before = cpu(side);
        const { rate, calls } = await load(sides[side](sql), side, inFlight, seconds);
        const after = cpu(side);
        const perCall = Object.keys(after).map((k) => `\t${k}=${(((after[k] - before[k]) * 1000) / calls).toFixed(3)}`);
        console.log(`${round}\t${name}\t${inFlight}\t${side}\t${rate.toFixed(1)}${perCall.join("")}`);
      }
    }
  }
}
reference.child.kill();
agent.destroy();
