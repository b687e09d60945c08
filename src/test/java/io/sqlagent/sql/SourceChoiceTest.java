package io.sqlagent.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Which sources the SQL tools offer, and the start refused when {@code sqlagent.sql.sources} names one not configured. */
class SourceChoiceTest {

    private static final Map<String, String> URLS = Map.of(
            "default", "postgresql://db/shop",
            "warehouse", "mariadb://db/stock",
            "orders", "jdbc:mysql://db/orders",
            "broken", "oracle://db/x");

    @Test
    void everyConfiguredSourceIsOfferedTheDefaultFirstEachWithItsEngine() {
        SourceChoice choice = new SourceChoice("default", Optional.empty(), URLS, null, null);

        assertThat(choice.offered()).extracting(SourceChoice.Offered::name)
                .containsExactly("default", "broken", "orders", "warehouse");
        assertThat(choice.summary()).isEqualTo("default (PostgreSQL; the default), broken (unknown engine), "
                + "orders (MySQL), warehouse (MariaDB)");
    }

    @Test
    void theSqlToolsSourcesSettingNarrowsTheChoiceAndTheDefaultIsAlwaysIn() {
        SourceChoice choice = new SourceChoice("default", Optional.of(List.of(" warehouse ", "")), URLS, null, null);

        assertThat(choice.offered()).extracting(SourceChoice.Offered::name).containsExactly("default", "warehouse");
    }

    @Test
    void aNameThatIsNotConfiguredStopsTheStartNamingItAndTheConfiguredOnes() {
        assertThatThrownBy(() -> new SourceChoice("default", Optional.of(List.of("warehouse", "wharehouse", "stock")), URLS,
                null, null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("sqlagent.sql.sources names sources that no sqlagent.sources.<name>.url configures: stock, "
                        + "wharehouse; configured: broken, default, orders, warehouse");
    }
}
