package io.sqlagent.store;

/** The store database could not be reached or did not answer in time; the same request may work later. */
public class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
