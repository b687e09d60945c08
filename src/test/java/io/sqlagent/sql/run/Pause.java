package io.sqlagent.sql.run;

import java.time.Duration;

/** A test's wait for the server to act on something sent before it (a kill, a cancel). */
public final class Pause {

    private Pause() {
    }

    /** Sleeps for {@code duration}; an interrupt fails the test. */
    public static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
