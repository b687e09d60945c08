package io.sqlagent.store;

/** The store's schema could not be brought up to date at start (the store was out of reach then). */
public class StoreSchemaUnavailableException extends IllegalStateException {

    public StoreSchemaUnavailableException() {
        super("the store's schema could not be brought up to date (see the service log)");
    }
}
