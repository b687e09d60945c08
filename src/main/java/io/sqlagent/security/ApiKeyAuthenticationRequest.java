package io.sqlagent.security;

import io.quarkus.security.identity.request.BaseAuthenticationRequest;

/** An API key (or the bootstrap key) sent as {@code Authorization: Bearer <key>}, to be checked. */
public final class ApiKeyAuthenticationRequest extends BaseAuthenticationRequest {

    private final String key;

    public ApiKeyAuthenticationRequest(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }
}
