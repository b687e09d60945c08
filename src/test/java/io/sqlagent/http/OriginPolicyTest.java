package io.sqlagent.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Which origins and hosts the edge lets through, as browsers write them. */
class OriginPolicyTest {

    private final OriginPolicy loopback = new OriginPolicy(List.of("https://chat.example.com/"), "localhost");

    @Test
    void theRequestsOwnOriginPassesWithDefaultPortsFilledIn() {
        assertTrue(loopback.originAllowed("http://localhost:8080", "http", "localhost", 8080));
        assertTrue(loopback.originAllowed("http://LOCALHOST:8080/", "http", "localhost", 8080));
        assertTrue(loopback.originAllowed("https://service.example", "https", "service.example", -1));
        assertTrue(loopback.originAllowed("http://service.example:80", "http", "service.example", -1));
        assertTrue(loopback.originAllowed("http://[::1]:8080", "http", "[::1]", 8080));
    }

    @Test
    void anotherSchemeHostOrPortIsForeign() {
        assertFalse(loopback.originAllowed("https://localhost:8080", "http", "localhost", 8080));
        assertFalse(loopback.originAllowed("http://localhost:8081", "http", "localhost", 8080));
        assertFalse(loopback.originAllowed("http://127.0.0.1:8080", "http", "localhost", 8080));
        assertFalse(loopback.originAllowed("http://evil.example", "http", "localhost", 8080));
        assertFalse(loopback.originAllowed("null", "http", "localhost", 8080));
        assertFalse(loopback.originAllowed("http://localhost:8080/path", "http", "localhost", 8080));
    }

    @Test
    void allowedOriginsPassFromAnyHost() {
        assertTrue(loopback.originAllowed("https://chat.example.com", "http", "localhost", 8080));
        assertTrue(loopback.originAllowed("https://chat.example.com:443", "http", "localhost", 8080));
        assertFalse(loopback.originAllowed("http://chat.example.com", "http", "localhost", 8080));
    }

    @Test
    void onLoopbackOnlyLoopbackNamesAndAllowedHostsAreServed() {
        assertTrue(loopback.loopbackOnly());
        for (String host : List.of("localhost", "LocalHost", "127.0.0.1", "127.1.2.3", "[::1]", "::1", "app.localhost",
                "chat.example.com")) {
            assertTrue(loopback.hostAllowed(host), host);
        }
        for (String host : List.of("evil.example", "192.168.1.10", "localhost.evil.example", "127.0.0.1.evil.example")) {
            assertFalse(loopback.hostAllowed(host), host);
        }
    }

    @Test
    void onEveryInterfaceAnyHostIsServed() {
        OriginPolicy everywhere = new OriginPolicy(List.of(), "0.0.0.0");
        assertFalse(everywhere.loopbackOnly());
        assertTrue(everywhere.hostAllowed("sqlagent.example.com"));
        assertTrue(new OriginPolicy(List.of(), "127.0.0.1").loopbackOnly());
        assertTrue(new OriginPolicy(List.of(), "::1").loopbackOnly());
    }

    @Test
    void aMalformedAllowedOriginStopsTheStartNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new OriginPolicy(List.of("chat.example.com"), "localhost"));
        assertEquals("sqlagent.http.allowed-origins: 'chat.example.com' is not an origin such as https://chat.example.com",
                e.getMessage());
    }
}
