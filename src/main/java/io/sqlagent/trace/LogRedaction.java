package io.sqlagent.trace;

import java.util.logging.Filter;
import java.util.logging.LogRecord;

import org.jboss.logmanager.ExtLogRecord;

import io.quarkus.logging.LoggingFilter;
import io.sqlagent.ClientGone;
import io.sqlagent.Redaction;

/**
 * The last line of defence for secrets in the log: every record the console (and the log file, when
 * one is configured) writes passes here, and its message and its exception's messages are passed
 * through {@link Redaction} (URL passwords, {@code password=}, bearer tokens, {@code sk-} keys and
 * every secret the configuration holds). The places that log what a caller or a server sent redact
 * it already; this catches what they do not, the libraries' own lines included. It also drops the stream writer's
 * lines about clients that went away ({@link ClientGone}), the one filter a handler has being this one.
 */
@LoggingFilter(name = LogRedaction.NAME)
public final class LogRedaction implements Filter {

    /** The name {@code quarkus.log.console.filter} refers to. */
    public static final String NAME = "sqlagent-redaction";

    /**
     * RESTEasy Reactive's stream writer, which logs at {@code ERROR} every event it could not send because the client
     * had gone (a closed tab, a client's timeout): the run goes on and can be resumed, nothing failed.
     */
    static final String STREAM_WRITER = "org.jboss.resteasy.reactive.server.handlers.PublisherResponseHandler";

    @Override
    public boolean isLoggable(LogRecord record) {
        if (STREAM_WRITER.equals(record.getLoggerName()) && record.getThrown() != null
                && ClientGone.is(record.getThrown())) {
            return false;
        }
        if (record instanceof ExtLogRecord ext) {
            String message = ext.getFormattedMessage();
            String redacted = Redaction.redact(message);
            if (message != null && !redacted.equals(message)) {
                ext.setMessage(redacted, ExtLogRecord.FormatStyle.NO_FORMAT);
                ext.setParameters(null);
            }
        }
        if (record.getThrown() != null) {
            record.setThrown(Redacted.of(record.getThrown()));
        }
        return true;
    }

    /** An exception as it is printed (class, message, stack), its messages redacted. */
    static final class Redacted extends RuntimeException {

        private Redacted(Throwable original, Throwable cause) {
            super(Redaction.redact(original.toString()), cause, false, true);
            setStackTrace(original.getStackTrace());
        }

        static Throwable of(Throwable original) {
            String shown = original.toString();
            Throwable cause = original.getCause() == null || original.getCause() == original ? null
                    : of(original.getCause());
            if (cause == original.getCause() && Redaction.redact(shown).equals(shown)) {
                return original;
            }
            return new Redacted(original, cause);
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }
}
