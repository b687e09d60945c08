package io.sqlagent.sql.source;

/**
 * Whether a source answered a probe.
 *
 * @param name the source's name
 * @param url its URL without credentials
 * @param up whether it answered
 * @param detail the server version when up, the reason when down
 */
public record SourceStatus(String name, String url, boolean up, String detail) {

    static SourceStatus up(String name, String url, String version) {
        return new SourceStatus(name, url, true, version);
    }

    static SourceStatus down(String name, String url, String reason) {
        return new SourceStatus(name, url, false, reason);
    }
}
