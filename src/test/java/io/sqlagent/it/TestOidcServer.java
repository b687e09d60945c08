package io.sqlagent.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.jwx.HeaderParameterNames;
import org.jose4j.lang.JoseException;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.sqlagent.SnakeCaseJson;

/**
 * An OpenID provider for the token cases: discovery and a JWKS with one RSA key, served on a free
 * port, and tokens signed with that key (or deliberately not). quarkus-test-oidc-server is the
 * library for this, but its 3.34.1 artifact is not in the registry this project builds from; what
 * quarkus-oidc needs of a provider for bearer tokens is these two documents.
 */
final class TestOidcServer implements AutoCloseable {

    static final String CLIENT_ID = "sqlagent";

    private final HttpServer server;
    private final RsaJsonWebKey key;
    final String issuer;

    private TestOidcServer(HttpServer server, RsaJsonWebKey key) {
        this.server = server;
        this.key = key;
        this.issuer = "http://127.0.0.1:" + server.getAddress().getPort() + "/realms/test";
    }

    static TestOidcServer start() throws IOException, JoseException {
        RsaJsonWebKey key = RsaJwkGenerator.generateJwk(2048);
        key.setKeyId("test-key");
        key.setAlgorithm(AlgorithmIdentifiers.RSA_USING_SHA256);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        TestOidcServer oidc = new TestOidcServer(server, key);
        server.createContext("/realms/test/.well-known/openid-configuration", exchange -> oidc.json(exchange, Map.of(
                "issuer", oidc.issuer,
                "jwks_uri", oidc.issuer + "/jwks",
                "authorization_endpoint", oidc.issuer + "/authorize",
                "token_endpoint", oidc.issuer + "/token",
                "response_types_supported", List.of("code"),
                "subject_types_supported", List.of("public"),
                "id_token_signing_alg_values_supported", List.of("RS256"))));
        server.createContext("/realms/test/jwks", exchange -> oidc.json(exchange,
                SnakeCaseJson.MAPPER.readValue(new JsonWebKeySet(key).toJson(), Map.class)));
        server.start();
        return oidc;
    }

    /** Claims of a valid access token for {@code user}, issued now for this service. */
    JwtClaims claims(String user) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(issuer);
        claims.setAudience(CLIENT_ID);
        claims.setSubject("sub-" + user);
        claims.setClaim("preferred_username", user);
        claims.setIssuedAtToNow();
        claims.setExpirationTimeMinutesInTheFuture(5);
        return claims;
    }

    /** The claims signed with the provider's key. */
    String sign(JwtClaims claims) throws JoseException {
        return sign(claims, key, key.getKeyId());
    }

    /** The claims signed with {@code signingKey}, naming key id {@code keyId}. */
    static String sign(JwtClaims claims, RsaJsonWebKey signingKey, String keyId) throws JoseException {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(signingKey.getRsaPrivateKey());
        jws.setKeyIdHeaderValue(keyId);
        jws.setHeader(HeaderParameterNames.TYPE, "JWT");
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        return jws.getCompactSerialization();
    }

    /** The claims with {@code "alg": "none"} and no signature. */
    static String unsigned(JwtClaims claims) throws JoseException {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.NONE);
        jws.setAlgorithmConstraints(org.jose4j.jwa.AlgorithmConstraints.NO_CONSTRAINTS);
        return jws.getCompactSerialization();
    }

    static NumericDate minutesFromNow(int minutes) {
        NumericDate date = NumericDate.now();
        date.addSeconds(minutes * 60L);
        return date;
    }

    private void json(HttpExchange exchange, Object body) throws IOException {
        byte[] bytes = SnakeCaseJson.MAPPER.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
