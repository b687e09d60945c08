package io.sqlagent.sql.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sqlagent.sql.engine.Guarantee;

/** What a source's engine cannot give stops the start, naming the source and the setting; the rest is said at start. */
class EngineGuaranteesTest {

    private static final Map<String, io.sqlagent.sql.engine.Engine> SOURCES = Map.of("default", Engines.POSTGRESQL,
            "shop", Engines.MARIADB);

    @Test
    void aTablePolicyAndHiddenColumnsHoldOnMariaDbAndMySqlSoTheyStart() {
        // What their statements read is checked against both (EngineReadCheck; MariaDbReadPolicyTest).
        assertThat(EngineGuarantees.problems(SOURCES, true, true, name -> false)).isEmpty();
        assertThat(EngineGuarantees.problems(Map.of("orders", Engines.MYSQL), true, true, name -> false)).isEmpty();
    }

    @Test
    void aRoleMappingStartsOnEveryEngine() {
        // MySQL and MariaDB take the role per call and drop it before the connection is reused (MariaDbRolesTest).
        assertThat(EngineGuarantees.problems(Map.of("default", Engines.POSTGRESQL, "orders", Engines.MYSQL, "shop",
                Engines.MARIADB), false, false, name -> true)).isEmpty();
        assertThat(Engines.MARIADB.guarantees()).containsEntry(Guarantee.CALLER_ROLE, Guarantee.Support.HOLDS);
    }

    @Test
    void postgreSqlAloneNeedsNothingAndSaysNothing() {
        assertThat(EngineGuarantees.problems(Map.of("default", Engines.POSTGRESQL), true, true, name -> true)).isEmpty();
        assertThat(EngineGuarantees.warnings("default", Engines.POSTGRESQL)).isEmpty();
    }

    @Test
    void mySqlAndMariaDbGiveExactValuesSoNothingIsSaidAtStart() {
        // run_sql reads their results through the engine's exact reader: no "not built yet" warning remains.
        assertThat(Engines.MARIADB.guarantees()).containsEntry(Guarantee.EXACT_VALUES, Guarantee.Support.HOLDS);
        assertThat(EngineGuarantees.warnings("shop", Engines.MARIADB)).isEmpty();
        assertThat(EngineGuarantees.warnings("orders", Engines.MYSQL)).isEmpty();
    }
}
