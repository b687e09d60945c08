package io.sqlagent.sql.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

class TablePolicyTest {

    private final TablePolicy policy = new TablePolicy(Optional.of(List.of("track", "album", "sales.*")),
            Optional.of(List.of("sales.salaries", "Album")));

    @Test
    void withoutSettingsEverythingIsPermitted() {
        TablePolicy open = new TablePolicy(Optional.empty(), Optional.empty());

        assertFalse(open.restricts());
        assertTrue(open.permits("customer"));
        assertTrue(open.permits("pg_catalog.pg_stats"));
    }

    @Test
    void onlyAllowedTablesPassAndDeniedOnesNeverDo() {
        assertTrue(policy.permits("track"));
        assertTrue(policy.permits("public.TRACK"));
        assertTrue(policy.permits("sales.orders"));
        assertFalse(policy.permits("customer"));
        assertFalse(policy.permits("album"), "denied wins over allowed");
        assertFalse(policy.permits("sales.salaries"));
    }

    @Test
    void catalogsStayReadableExceptTheStatisticsThatHoldColumnValues() {
        assertTrue(policy.permits("information_schema.tables"));
        assertTrue(policy.permits("pg_class"));
        assertFalse(policy.permits("pg_stats"));
        assertFalse(policy.permits("pg_catalog.pg_statistic"));
    }

    @Test
    void reportsTheRefusedTablesSorted() {
        assertEquals(Set.of("album", "customer"), policy.refused(Set.of("track", "customer", "album")));
    }
}
