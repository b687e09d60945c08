package io.sqlagent.sql.run;

import java.time.Duration;

/** A test's wait for the server to act on something sent before it (a kill, a cancel). */
final class Pause {

    private Pause() {
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
