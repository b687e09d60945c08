package io.sqlagent.knowledge.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The words abbreviated name parts stand for, found in the embedding model's own vocabulary. */
class ExpansionsTest {

    private final Expansions english = Expansions.english();

    @Test
    void aConsonantSkeletonOrALongPrefixIsWrittenAsTheWordItShortens() {
        assertThat(english.expand("vndr")).isEqualTo("vendor");
        assertThat(english.expand("cmpgn")).isEqualTo("campaign");
        assertThat(english.expand("srvy")).isEqualTo("survey");
        assertThat(english.expand("jrnl")).isEqualTo("journal");
        assertThat(english.expand("tkt")).isEqualTo("ticket");
        assertThat(english.expand("discont")).isEqualTo("discontinued");
    }

    @Test
    void aNameOfWordsRunTogetherIsSplitIntoThem() {
        assertThat(english.parts("salesorderheader")).containsExactly("sales", "order", "header");
        assertThat(english.parts("businessentityid")).containsExactly("business", "entity", "id");
        assertThat(english.parts("billofmaterials")).containsExactly("bill", "of", "materials");
        assertThat(english.parts("productinventory")).containsExactly("product", "inventory");
        // A view's leading letter is no word: left out.
        assertThat(english.parts("vstorewithaddresses")).containsExactly("store", "with", "addresses");
    }

    @Test
    void aWordANameOfAnotherLanguageOrAnAbbreviationIsNotSplit() {
        for (String name : new String[] { "employee", "kundenbewertung", "lagerbestand", "orderqty", "rowguid", "vemployee",
                "cust", "sales2023", "customer_id", "Product" }) {
            assertThat(english.parts(name)).as(name).containsExactly(name);
        }
    }

    @Test
    void wordsShortNamesAndAbbreviationsSeveralWordsFitAreLeftAsTheyAre() {
        // Words of the vocabulary, and names of other languages with vowels, are no abbreviations.
        assertThat(english.expand("order")).isEqualTo("order");
        assertThat(english.expand("kundenbewertung")).isEqualTo("kundenbewertung");
        assertThat(english.expand("hasta")).isEqualTo("hasta");
        // header or hydro; cost, coast or cast: not guessed.
        assertThat(english.expand("hdr")).isEqualTo("hdr");
        assertThat(english.expand("cst")).isEqualTo("cst");
        // Only rare or distant words fit: nps is no naples, url no ursula.
        assertThat(english.expand("nps")).isEqualTo("nps");
        assertThat(english.expand("url")).isEqualTo("url");
        // Three letters begin too many words to be taken as a prefix; two are never expanded.
        assertThat(english.expand("cus")).isEqualTo("cus");
        assertThat(english.expand("po")).isEqualTo("po");
        assertThat(english.expand("v2")).isEqualTo("v2");
    }

    @Test
    void theSkippedConsonantsCountAndDoubledOnesCountOnce() {
        assertThat(Expansions.skippedConsonants("vndr", "vendor")).isZero();
        assertThat(Expansions.skippedConsonants("pmt", "payment")).isEqualTo(1);
        assertThat(Expansions.skippedConsonants("xyz", "vendor")).isEqualTo(-1);
        // comment, collapsed to coment, skips nothing for cmnt; so does cement: two words fit, none is chosen.
        assertThat(Expansions.of(java.util.List.of("comment", "payment")).expand("cmnt")).isEqualTo("comment");
        assertThat(Expansions.of(java.util.List.of("comment", "cement")).expand("cmnt")).isEqualTo("cmnt");
    }
}
