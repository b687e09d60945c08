// A real MCP client for OidcProviderIT: the official TypeScript SDK over streamable HTTP, logging in
// by itself as the MCP authorization specification describes (401 -> resource metadata -> the
// authorization server, Keycloak -> a client-credentials token), then listing tools and calling run_sql.
// Usage: node mcp-client.mjs <MCP URL> <issuer>. Prints one JSON line: {"tools": [...], "result": {...}}.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';

const [mcpUrl, issuer] = process.argv.slice(2);
const authProvider = new ClientCredentialsProvider({
  clientId: 'mcp-client',
  clientSecret: 'mcp-client-secret',
  expectedIssuer: issuer,
});
const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider });
const client = new Client({ name: 'oidc-it', version: '1.0.0' });
// On the first 401 the SDK reads resource_metadata, asks the provider for a token and sends again.
await client.connect(transport);
const tools = await client.listTools();
const result = await client.callTool({ name: 'run_sql', arguments: { sql: 'SELECT count(*) AS n FROM track' } });
console.log(JSON.stringify({ tools: tools.tools.map((tool) => tool.name), result, token: authProvider.tokens()?.token_type }));
await client.close();
