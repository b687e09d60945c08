package io.sqlagent.knowledge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;

import org.junit.jupiter.api.Test;

/** The search words become an OR tsquery with nothing of tsquery syntax left in. */
class AnyWordQueryTest {

    @Test
    void joinsTheWordsWithOr() {
        assertEquals(Optional.of("revenue | by | country"), KnowledgeStore.anyWordQuery("Revenue by country?"));
        assertEquals(Optional.of("invoice | line | unit | price"), KnowledgeStore.anyWordQuery("invoice_line.unit_price"));
        assertEquals(Optional.of("a | b"), KnowledgeStore.anyWordQuery("a & !b | a:* ('b')"));
        assertEquals(Optional.of("café"), KnowledgeStore.anyWordQuery("Café"));
    }

    @Test
    void nothingToSearchIsEmpty() {
        assertEquals(Optional.empty(), KnowledgeStore.anyWordQuery("  !!! && :: "));
        assertEquals(KnowledgeStore.MAX_QUERY_WORDS,
                KnowledgeStore.anyWordQuery("w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 "
                        + "w23 w24 w25 w26 w27 w28 w29 w30 w31 w32 w33 w34").orElseThrow().split(" \\| ").length);
    }
}
