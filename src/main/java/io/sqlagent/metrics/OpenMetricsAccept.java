package io.sqlagent.metrics;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/**
 * Lets {@code /q/metrics} answer {@code Accept: application/openmetrics-text; version=1.0.0} (and
 * the bare {@code application/openmetrics-text}) with OpenMetrics. Quarkus serves OpenMetrics on a
 * route that produces {@code application/openmetrics-text; version=1.0.0; charset=utf-8}, and
 * Vert.x matches a route's media type only when the request names every one of its parameters, so
 * an Accept header without {@code charset} got 406 Not Acceptable; Prometheus itself is served
 * only because it also sends {@code *}{@code /*}. There is no setting for this, hence this filter:
 * it completes each OpenMetrics media range of the Accept header with the parameters the route
 * names, keeping its {@code q} weight, before routing reads the header.
 * <p>
 * The other way round, a scrape that does not ask for OpenMetrics gets the classic text format:
 * with no Accept header or only {@code *}{@code /*} (curl, a browser, {@code promtool}'s users)
 * Vert.x picked the OpenMetrics route, whose exemplars ({@code # {span_id=…}} after a bucket) the
 * text-format readers take for a malformed timestamp. Such a request is asked as {@code text/plain}.
 */
@ApplicationScoped
public class OpenMetricsAccept {

    static final String OPENMETRICS = "application/openmetrics-text";
    private static final String PARAMETERS = "; version=1.0.0; charset=utf-8";
    /** The classic text format, as a client asking for it names it (the route adds {@code version=0.0.4}). */
    private static final String TEXT = "text/plain";
    /** Where Quarkus serves the scrape ({@code quarkus.micrometer.export.prometheus.path} under {@code /q}). */
    private static final String METRICS_PATH = "/q/metrics";

    /** Early, before any route parses the Accept header (Vert.x parses it once, on first use). */
    private static final int PRIORITY = 10_000;

    void register(@Observes Filters filters) {
        filters.register(OpenMetricsAccept::complete, PRIORITY);
    }

    private static void complete(RoutingContext context) {
        String accept = context.request().getHeader(HttpHeaders.ACCEPT);
        if (accept != null && accept.contains(OPENMETRICS)) {
            context.request().headers().set(HttpHeaders.ACCEPT, completed(accept));
        } else if (METRICS_PATH.equals(context.normalizedPath()) && !namesAType(accept)) {
            context.request().headers().set(HttpHeaders.ACCEPT, TEXT);
        }
        context.next();
    }

    /** Whether {@code accept} names a media type of its own, not only the wildcard {@code *}{@code /*}. */
    static boolean namesAType(String accept) {
        if (accept == null) {
            return false;
        }
        for (String range : accept.split(",")) {
            String type = range.split(";")[0].trim();
            if (!type.isEmpty() && !type.equals("*/*")) {
                return true;
            }
        }
        return false;
    }

    /** {@code accept} with every OpenMetrics media range naming version and charset as the route does. */
    static String completed(String accept) {
        StringBuilder result = new StringBuilder();
        for (String range : accept.split(",")) {
            String[] parts = range.split(";");
            String weight = "";
            for (int i = 1; i < parts.length; i++) {
                if (parts[i].trim().startsWith("q=")) {
                    weight = "; " + parts[i].trim();
                }
            }
            if (!result.isEmpty()) {
                result.append(", ");
            }
            result.append(parts[0].trim().equalsIgnoreCase(OPENMETRICS) ? OPENMETRICS + PARAMETERS + weight : range.trim());
        }
        return result.toString();
    }
}
