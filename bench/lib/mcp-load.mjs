// MCP run_sql load on the service alone, for bench/service-cpu-ab.sh: one streamable-HTTP session, N tools/call
// in flight for S seconds; prints the calls answered and fails on any error answer.
//   node bench/lib/mcp-load.mjs http://127.0.0.1:8080/mcp "SELECT 1" SECONDS IN_FLIGHT
import http from "node:http";

const [url, sql, seconds, inFlight] = process.argv.slice(2);
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function post(body, session) {
  return new Promise((resolve, reject) => {
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    if (session) headers["Mcp-Session-Id"] = session;
    const request = http.request(
      { agent, method: "POST", host: target.hostname, port: target.port, path: target.pathname, headers },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode, session: response.headers["mcp-session-id"], text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify(body));
  });
}
const initialize = { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "bench-mcp-load", version: "1" } };
const init = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: initialize });
if (init.status !== 200 || !init.session) throw new Error(`initialize: HTTP ${init.status}`);
await post({ jsonrpc: "2.0", method: "notifications/initialized" }, init.session);
let nextId = 1;
let calls = 0;
const until = performance.now() + Number(seconds) * 1000;
async function worker() {
  while (performance.now() < until) {
    const params = { name: "run_sql", arguments: { sql } };
    const answer = await post({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params }, init.session);
    if (answer.status !== 200 || answer.text.includes('"isError":true') || answer.text.includes('"error":{')) {
      throw new Error(`the service answered HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
    }
    calls++;
  }
}
await Promise.all(Array.from({ length: Number(inFlight) }, worker));
console.log(calls);
agent.destroy();
