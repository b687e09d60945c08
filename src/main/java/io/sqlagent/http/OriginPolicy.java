package io.sqlagent.http;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which browser origins and which {@code Host} names may reach the service. Quarkus's CORS filter
 * only adds headers a browser reads; it neither answers with a body a client can act on nor looks
 * at {@code Host}, which is the only defence against DNS rebinding of a service on loopback (the
 * rebound page is same-origin with itself), so both checks are written here.
 */
final class OriginPolicy {

    /**
     * An IPv4 loopback address. Compiled once: every request's {@code Host} is checked against it, and
     * {@code String.matches} compiled it anew each time (about 1 % of the service's CPU per REST call).
     */
    private static final Pattern LOOPBACK_IPV4 = Pattern.compile("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");

    /** An origin as browsers send it: scheme, host, port (the scheme's default filled in). */
    record Origin(String scheme, String host, int port) {

        static Optional<Origin> parse(String text) {
            if (text == null) {
                return Optional.empty();
            }
            String trimmed = text.strip();
            if (trimmed.endsWith("/")) {
                trimmed = trimmed.substring(0, trimmed.length() - 1);
            }
            try {
                URI uri = new URI(trimmed);
                if (uri.getScheme() == null || uri.getHost() == null
                        || (uri.getRawPath() != null && !uri.getRawPath().isEmpty())
                        || uri.getRawQuery() != null || uri.getRawUserInfo() != null) {
                    return Optional.empty();
                }
                String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
                return Optional.of(new Origin(scheme, normalHost(uri.getHost()),
                        uri.getPort() == -1 ? defaultPort(scheme) : uri.getPort()));
            } catch (URISyntaxException e) {
                return Optional.empty();
            }
        }
    }

    private final Set<Origin> allowed;
    private final Set<String> allowedHosts;
    private final boolean loopbackOnly;

    /**
     * @param allowedOrigins origins accepted besides the request's own
     * @param bindHost the address the service listens on ({@code quarkus.http.host})
     */
    OriginPolicy(List<String> allowedOrigins, String bindHost) {
        this.allowed = allowedOrigins.stream()
                .map(origin -> Origin.parse(origin).orElseThrow(() -> new IllegalArgumentException(
                        "sqlagent.http.allowed-origins: '" + origin + "' is not an origin such as https://chat.example.com")))
                .collect(Collectors.toUnmodifiableSet());
        this.allowedHosts = allowed.stream().map(Origin::host).collect(Collectors.toUnmodifiableSet());
        this.loopbackOnly = isLoopback(bindHost);
    }

    /** Whether the service listens on a loopback address only, where {@code Host} is checked. */
    boolean loopbackOnly() {
        return loopbackOnly;
    }

    /**
     * Whether a request naming {@code host} in its {@code Host} header may be served: on loopback
     * only loopback names (and the hosts of allowed origins), because any other name reaching a
     * loopback listener was rebound to it by DNS.
     */
    boolean hostAllowed(String host) {
        if (!loopbackOnly || host == null) {
            return true;
        }
        String name = normalHost(host);
        return isLoopbackName(name) || allowedHosts.contains(name);
    }

    /**
     * Whether a request with this {@code Origin} header may be served: the request's own origin
     * ({@code scheme}, {@code host}, {@code port} as the request names them) or an allowed one.
     */
    boolean originAllowed(String origin, String scheme, String host, int port) {
        Optional<Origin> parsed = Origin.parse(origin);
        if (parsed.isEmpty()) {
            return false; // "null" (sandboxed frames, file: pages) and anything malformed
        }
        if (allowed.contains(parsed.get())) {
            return true;
        }
        if (host == null) {
            return false;
        }
        String ownScheme = scheme.toLowerCase(Locale.ROOT);
        Origin own = new Origin(ownScheme, normalHost(host), port <= 0 ? defaultPort(ownScheme) : port);
        return own.equals(parsed.get());
    }

    private static String normalHost(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        if (name.startsWith("[") && name.endsWith("]")) {
            name = name.substring(1, name.length() - 1);
        }
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    private static boolean isLoopbackName(String name) {
        return name.equals("localhost") || name.endsWith(".localhost") || name.equals("::1")
                || name.equals("0:0:0:0:0:0:0:1") || LOOPBACK_IPV4.matcher(name).matches();
    }

    private static boolean isLoopback(String bindHost) {
        String name = normalHost(bindHost);
        if (isLoopbackName(name)) {
            return true;
        }
        if (name.equals("0.0.0.0") || name.equals("::") || name.equals("0:0:0:0:0:0:0:0")) {
            return false;
        }
        try {
            return InetAddress.getByName(name).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static int defaultPort(String scheme) {
        return switch (scheme) {
            case "https", "wss" -> 443;
            case "http", "ws" -> 80;
            default -> -1;
        };
    }
}
