package io.sqlagent.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class ToolsTest {

    private final FakeTool alpha = FakeTool.returning("alpha", 1);
    private final FakeTool beta = FakeTool.returning("beta", 2);

    @Test
    void indexesToolsByNameInInsertionOrder() {
        Tools tools = Tools.of(beta, alpha);

        assertEquals(List.of("beta", "alpha"), List.copyOf(tools.names()));
        assertSame(alpha, tools.get("alpha").orElseThrow());
        assertTrue(tools.get("gamma").isEmpty());
    }

    @Test
    void everyChangeReturnsANewCollectionAndLeavesTheOriginalAlone() {
        Tools original = Tools.of(alpha);

        Tools withBeta = original.with(beta);
        Tools withoutAlpha = withBeta.without("alpha", "missing");

        assertEquals(List.of("alpha"), List.copyOf(original.names()));
        assertEquals(List.of("alpha", "beta"), List.copyOf(withBeta.names()));
        assertEquals(List.of("beta"), List.copyOf(withoutAlpha.names()));
        assertThrows(UnsupportedOperationException.class, () -> original.names().clear());
    }

    @Test
    void rejectsTwoToolsWithOneName() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> Tools.of(alpha, FakeTool.returning("alpha", 3)));

        assertEquals("A tool named 'alpha' is already in the collection", error.getMessage());
    }

    @Test
    void mergeLetsTheOtherCollectionWinOnSharedNames() {
        FakeTool newAlpha = FakeTool.returning("alpha", 9);

        Tools merged = Tools.of(alpha, beta).merge(Tools.of(newAlpha));

        assertEquals(2, merged.size());
        assertSame(newAlpha, merged.get("alpha").orElseThrow());
    }
}
