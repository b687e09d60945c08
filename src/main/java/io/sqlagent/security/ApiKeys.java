package io.sqlagent.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The shape of an API key: {@code sqa_<key id>_<secret>}, 12 hex digits of id and 256 random bits
 * of secret. The id finds the stored key; only SHA-256 of the secret is stored and compared in
 * constant time. A slow password hash is not needed: the secret is random, not a person's password.
 * The prefix lets a key be told from a JWT (which has dots) and found by secret scanners.
 */
public final class ApiKeys {

    static final String PREFIX = "sqa_";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    /** A key as sent: its id and its secret. */
    public record Parsed(String keyId, String secret) {
    }

    /** A new key: what the caller gets once, and what is stored. */
    public record Issued(String key, String keyId, byte[] secretHash) {
    }

    private ApiKeys() {
    }

    public static Issued issue() {
        byte[] id = new byte[6];
        byte[] secret = new byte[32];
        RANDOM.nextBytes(id);
        RANDOM.nextBytes(secret);
        String keyId = HEX.formatHex(id);
        String secretText = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        return new Issued(PREFIX + keyId + "_" + secretText, keyId, sha256(secretText));
    }

    /** Whether {@code token} is shaped like one of our keys (not whether it is valid). */
    public static boolean looksLikeKey(String token) {
        return token.startsWith(PREFIX);
    }

    public static Optional<Parsed> parse(String token) {
        if (!looksLikeKey(token) || token.length() < PREFIX.length() + 14) {
            return Optional.empty();
        }
        String keyId = token.substring(PREFIX.length(), PREFIX.length() + 12);
        if (token.charAt(PREFIX.length() + 12) != '_' || !keyId.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            return Optional.empty();
        }
        return Optional.of(new Parsed(keyId, token.substring(PREFIX.length() + 13)));
    }

    public static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Constant-time comparison of two texts by their hashes (equal length, so no length leaks). */
    public static boolean sameSecret(String presented, byte[] expectedHash) {
        return MessageDigest.isEqual(sha256(presented), expectedHash);
    }
}
