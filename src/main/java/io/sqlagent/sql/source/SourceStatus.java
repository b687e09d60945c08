package io.sqlagent.sql.source;

/**
 * Whether a source answered a probe.
 *
 * @param name the source's name
 * @param url its URL without credentials
 * @param up whether it answered
 * @param detail the server version when up, the reason when down, what keeps it busy when busy
 * @param busy whether it is up but every connection was in use, so the probe could not run ({@link Source#probe})
 */
public record SourceStatus(String name, String url, boolean up, String detail, boolean busy) {

    static SourceStatus up(String name, String url, String version) {
        return new SourceStatus(name, url, true, version, false);
    }

    static SourceStatus down(String name, String url, String reason) {
        return new SourceStatus(name, url, false, reason, false);
    }

    static SourceStatus busy(String name, String url, String detail) {
        return new SourceStatus(name, url, true, detail, true);
    }
}
