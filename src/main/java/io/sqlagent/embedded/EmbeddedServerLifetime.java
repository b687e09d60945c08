package io.sqlagent.embedded;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Keeps the embedded server up until the application's shutdown is done: on SIGTERM the JVM runs
 * {@link PostmasterStopper} at the same time as Quarkus' shutdown, which still ends chats, writes
 * their last events and drains the audit log into the store.
 */
@ApplicationScoped
class EmbeddedServerLifetime {

    /** After every other start-up observer: an application that failed to start has nothing to finish. */
    void started(@Observes @Priority(Integer.MAX_VALUE - 1) StartupEvent event) {
        PostmasterStopper.applicationStarted();
    }

    /** After every other shutdown observer (the audit log's drain among them). */
    void stopped(@Observes @Priority(Integer.MAX_VALUE - 1) ShutdownEvent event) {
        PostmasterStopper.applicationStopped();
    }
}
