package io.sqlagent.security;

/**
 * An API key could not be checked because the store did not answer: neither accepted nor refused,
 * so the caller gets 503 and tries again, never a 401 that would make it drop a valid key.
 */
public final class CredentialCheckUnavailable extends RuntimeException {

    CredentialCheckUnavailable(Throwable cause) {
        super("The store could not be reached to check the API key: " + cause.getMessage(), cause, false, false);
    }
}
