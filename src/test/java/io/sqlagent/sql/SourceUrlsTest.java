package io.sqlagent.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SourceUrlsTest {

    @Test
    void acceptsJdbcAndShortSpellings() {
        assertEquals("postgresql://db:5432/shop", SourceUrls.normalise("jdbc:postgresql://db:5432/shop"));
        assertEquals("postgresql://db/shop", SourceUrls.normalise("postgres://db/shop"));
        assertEquals("postgresql://db/shop", SourceUrls.normalise("  postgresql://db/shop "));
        assertEquals("postgresql://db/shop", SourceUrls.normalise("vertx-reactive:postgresql://db/shop"));
    }

    @Test
    void rejectsOtherSchemesWithoutShowingThePassword() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> SourceUrls.normalise("mysql://root:hunter2@db/shop"));

        assertTrue(error.getMessage().contains("mysql://root:***@db/shop"), error.getMessage());
        assertFalse(error.getMessage().contains("hunter2"));
    }

    @Test
    void redactsPasswordsInUserInfoAndQuery() {
        assertEquals("postgresql://app:***@db:5432/shop", SourceUrls.redact("postgresql://app:s3cret@db:5432/shop"));
        assertEquals("postgresql://db/shop?user=app&password=***&ssl=true",
                SourceUrls.redact("postgresql://db/shop?user=app&password=s3cret&ssl=true"));
        assertEquals("postgresql://app@db/shop", SourceUrls.redact("postgresql://app@db/shop"));
    }
}
