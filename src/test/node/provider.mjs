// A real OpenID provider for OidcProviderIT (the OpenID-certified oidc-provider), on 127.0.0.1:<port>.
// Usage: node provider.mjs <port> <service URL>. Prints "READY <issuer>" once it listens.
// Clients: "sqlagent" (the service: the browser's authorization-code login) and "mcp-client" (a program:
// client credentials). Access tokens for the service are JWTs with audience "sqlagent" (resource indicators).
// Any login and password are accepted (the provider's development login form); every account is in
// group "operators".
import Provider from 'oidc-provider';

const [port, serviceUrl] = [Number(process.argv[2]), process.argv[3]];
const issuer = `http://127.0.0.1:${port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'sqlagent',
      client_secret: 'sqlagent-secret',
      redirect_uris: [`${serviceUrl}/login`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
    {
      client_id: 'mcp-client',
      client_secret: 'mcp-client-secret',
      redirect_uris: [],
      grant_types: ['client_credentials'],
      response_types: [],
      scope: 'sql:read',
    },
  ],
  scopes: ['openid', 'profile', 'sql:read'],
  claims: { openid: ['sub'], profile: ['preferred_username', 'groups'] },
  conformIdTokenClaims: false,
  findAccount: async (ctx, id) => ({
    accountId: id,
    claims: async () => ({ sub: id, preferred_username: id, groups: ['operators'] }),
  }),
  features: {
    devInteractions: { enabled: true },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => serviceUrl,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope: 'sql:read',
        audience: 'sqlagent',
        accessTokenFormat: 'jwt',
        accessTokenTTL: 600,
      }),
    },
  },
});
provider.proxy = false;
provider.listen(port, '127.0.0.1', () => console.log(`READY ${issuer}`));
