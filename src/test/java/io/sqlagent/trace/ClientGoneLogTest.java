package io.sqlagent.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.logging.Level;

import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

import io.vertx.core.http.HttpClosedException;

/**
 * The log filter drops the stream writer's lines about clients that went away, whatever way the JDK, Netty or
 * Vert.x said so, and nothing else: the same writer's other failures and other loggers' lines stay.
 */
class ClientGoneLogTest {

    private final LogRedaction filter = new LogRedaction();

    @Test
    void theStreamWritersLinesAboutClientsThatWentAwayAreDropped() {
        assertThat(filter.isLoggable(record(LogRedaction.STREAM_WRITER, new IOException("Broken pipe")))).isFalse();
        assertThat(filter.isLoggable(record(LogRedaction.STREAM_WRITER, new IOException("Connection reset by peer"))))
                .isFalse();
        assertThat(filter.isLoggable(record(LogRedaction.STREAM_WRITER, new ClosedChannelException()))).isFalse();
        assertThat(filter.isLoggable(record(LogRedaction.STREAM_WRITER,
                new RuntimeException("wrapped", new IOException(new HttpClosedException("Connection was closed"))))))
                .isFalse();
    }

    @Test
    void otherFailuresOfTheWriterAndOtherLoggersLinesStay() {
        assertThat(filter.isLoggable(record(LogRedaction.STREAM_WRITER, new IllegalStateException("a bug")))).isTrue();
        assertThat(filter.isLoggable(record(LogRedaction.STREAM_WRITER, new IOException("No space left on device"))))
                .isTrue();
        assertThat(filter.isLoggable(record("io.sqlagent.agent.live.LiveRuns", new IOException("Broken pipe")))).isTrue();
        assertThat(filter.isLoggable(record(LogRedaction.STREAM_WRITER, null))).isTrue();
    }

    private static ExtLogRecord record(String logger, Throwable thrown) {
        ExtLogRecord record = new ExtLogRecord(Level.SEVERE, "Exception in SSE server handling",
                ExtLogRecord.FormatStyle.NO_FORMAT,
                logger);
        record.setLoggerName(logger);
        record.setThrown(thrown);
        return record;
    }
}
