package io.sqlagent.knowledge.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.sqlagent.sql.policy.ColumnPolicy;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.sql.schema.SchemaIntrospector.CatalogColumn;
import io.sqlagent.sql.schema.SchemaIntrospector.CatalogTable;
import io.sqlagent.sql.schema.SchemaIntrospector.Relation;
import io.sqlagent.workspace.vector.Embeddings;

/** The ranking of the schema index on a small warehouse: copies behind their original, the join path, vector reuse. */
class SchemaIndexTest {

    private static CatalogTable table(String qualified, String comment, List<String> references, String... columns) {
        String schema = qualified.substring(0, qualified.indexOf('.'));
        List<CatalogColumn> shown = new ArrayList<>();
        for (String column : columns) {
            shown.add(new CatalogColumn(column, "text", ""));
        }
        return new CatalogTable(new Relation(schema, qualified.substring(schema.length() + 1), "r", comment), shown,
                references);
    }

    private static List<CatalogTable> warehouse(String customersComment) {
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("sales.customers", customersComment, List.of(), "name", "email"));
        catalog.add(table("sales.orders", "Orders placed by customers", List.of("sales.customers"), "order_date", "total"));
        for (String copy : List.of("history", "archive", "staging", "backup_2023", "daily_snapshot", "v2")) {
            catalog.add(table("sales.orders_" + copy, "Copy (" + copy + ") of orders placed by customers", List.of(),
                    "order_date", "total"));
        }
        catalog.add(table("sales.order_items", "Lines of an order", List.of("sales.orders"), "quantity", "price"));
        return catalog;
    }

    private static SchemaIndex index(List<CatalogTable> catalog) {
        return SchemaIndex.build(catalog, new TablePolicy(Optional.empty(), Optional.empty()),
                new ColumnPolicy(Optional.empty()),
                1000);
    }

    private static List<String> tables(List<SchemaIndex.Hit> hits) {
        return hits.stream().map(SchemaIndex.Hit::table).toList();
    }

    @Test
    void aQuestionsWordsFindATableWhoseNameRunsThemTogether() {
        // Names ported from ProductInventory without quotes: one word each to the index unless split, and no comments.
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("production.product", null, List.of(), "productid", "name", "listprice"));
        catalog.add(table("production.productcosthistory", null, List.of("production.product"), "productid", "standardcost"));
        catalog.add(table("production.productinventory", null, List.of("production.product"), "productid", "locationid",
                "quantity"));
        SchemaIndex index = index(catalog);

        List<String> stock = tables(index.search("inventory of each product", null, List.of(), 10));
        List<String> costs = tables(index.search("the history of what each product cost", null, List.of(), 10));

        assertTrue(stock.indexOf("production.productinventory") < stock.indexOf("production.productcosthistory"),
                stock.toString());
        assertTrue(costs.indexOf("production.productcosthistory") < costs.indexOf("production.productinventory"),
                costs.toString());
        // At half a column word's weight: the table the question names outright still comes first.
        assertEquals("production.product", stock.get(0));
    }

    @Test
    void anApostropheInTheQuestionMatchesNoPossessiveInAComment() {
        // Every comment that says "a vendor's" or "the company's" held the word s, and so did "What's" and "Linda's".
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("purchasing.vendor", "Companies from whom the company's parts are bought", List.of(), "name",
                "credit_rating"));
        catalog.add(table("sales.store", "A reseller's shops", List.of(), "name", "demographics"));
        catalog.add(table("person.person_phone", "Telephone numbers", List.of(), "phone_number", "phone_type"));
        SchemaIndex index = index(catalog);

        for (String question : List.of("What's Linda's phone?", "WHAT'S LINDA’S PHONE?",
                "We've lost Linda's phone, haven't we?")) {
            assertEquals(List.of("person.person_phone"), tables(index.search(question, null, List.of(), 10)), question);
        }
        assertEquals(List.of("phone", "linda", "know"), SchemaWords.words("What's the phone? Linda's. Don't we'd know"));
    }

    @Test
    void aTableJoiningTwoOfTheBestComesInTheFirstFiveThoughNoWordOfTheQuestionNamesIt() {
        // Films, categories and the link between them; five more tables a word of the question matches.
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("public.film", null, List.of(), "film_id", "title", "rating"));
        catalog.add(table("public.category", null, List.of(), "category_id", "name"));
        catalog.add(table("public.film_category", null, List.of("public.film", "public.category"), "film_id",
                "category_id"));
        for (String other : List.of("film_actor", "film_text", "film_review", "category_budget", "film_award")) {
            catalog.add(table("public." + other, null, List.of(), "title", "name", "rating"));
        }
        SchemaIndex index = index(catalog);

        List<String> found = tables(index.search("film title rating and category name", null, List.of(), 10));

        assertTrue(found.subList(0, 5).containsAll(List.of("public.film", "public.category", "public.film_category")),
                found.toString());
    }

    @Test
    void aViewFollowsTheBaseTablesItsWordsMatchAsWell() {
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("public.customer", null, List.of(), "customer_id", "first_name", "last_name", "email"));
        catalog.add(new CatalogTable(new Relation("public", "customer_list", "view", null),
                List.of(new CatalogColumn("customer_id", "int", ""), new CatalogColumn("name", "text", ""),
                        new CatalogColumn("email", "text", ""), new CatalogColumn("customer_list_note", "text", "")),
                List.of()));
        SchemaIndex index = index(catalog);

        List<String> found = tables(index.search("customer list email", null, List.of(), 10));

        assertEquals(List.of("public.customer", "public.customer_list"), found);
    }

    @Test
    void aViewTheQuestionNamesIsStillAmongTheFirstFive() {
        // Pagila's shape: stores, their staff and addresses, payments and rentals, and a reporting view of sales.
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("public.address", null, List.of(), "address_id", "address", "district", "phone"));
        catalog.add(table("public.store", null, List.of("public.address"), "store_id", "manager_staff_id", "address_id"));
        catalog.add(table("public.staff", null, List.of("public.store", "public.address"), "staff_id", "first_name",
                "store_id", "address_id"));
        catalog.add(table("public.customer", null, List.of("public.store", "public.address"), "customer_id",
                "first_name", "store_id", "address_id"));
        catalog.add(table("public.inventory", null, List.of("public.store"), "inventory_id", "film_id", "store_id"));
        catalog.add(table("public.payment", null, List.of("public.customer", "public.staff"), "payment_id", "amount",
                "payment_date", "customer_id", "staff_id"));
        catalog.add(new CatalogTable(new Relation("public", "sales_by_store", "view", null),
                List.of(new CatalogColumn("store", "text", ""), new CatalogColumn("manager", "text", ""),
                        new CatalogColumn("total_sales", "numeric", "")),
                List.of()));

        for (String question : List.of("What are the total sales by store?", "sales by store", "Show sales_by_store")) {
            List<String> found = tables(index(catalog).search(question, null, List.of(), 5));

            assertTrue(found.contains("public.sales_by_store"), question + ": " + found);
        }
    }

    @Test
    void copiesComeAfterTheDistinctTablesEachBelowItsOriginal() {
        SchemaIndex index = index(warehouse("People who buy"));

        List<String> found = tables(index.search("orders placed", null, List.of(), 10));

        assertEquals(List.of("sales.orders", "sales.order_items", "sales.customers"), found.subList(0, 3), found.toString());
        assertTrue(found.subList(3, found.size()).stream().allMatch(table -> table.startsWith("sales.orders_")),
                found.toString());
    }

    @Test
    void aTableThatKeepsAnotherOnesColumnsUnderALongerNameIsItsCopyWhateverTheSuffix() {
        // Suffixes no list of copy markers has: _x, _cpy, Test, and a child table with columns of its own.
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("ord.cust_ord_hdr", null, List.of(), "ord_no", "ord_dt", "tot_amt"));
        for (String copy : List.of("_x", "_cpy", "Test", "_qa", "_old2")) {
            catalog.add(table("ord.cust_ord_hdr" + copy, null, List.of(), "ord_no", "ord_dt", "tot_amt", "load_id"));
        }
        catalog.add(table("ord.cust_ord_hdr_note", null, List.of(), "note_txt"));
        catalog.add(table("ord.cust_ord_ln", null, List.of("ord.cust_ord_hdr"), "qty", "unit_prc"));
        SchemaIndex index = index(catalog);

        List<String> found = tables(index.search("ord hdr ord_no", null, List.of(), 10));

        assertEquals(5, index.copies());
        assertEquals("ord.cust_ord_hdr", found.get(0));
        assertTrue(found.indexOf("ord.cust_ord_hdr_note") < found.indexOf("ord.cust_ord_hdr_x"), found.toString());
    }

    @Test
    void aQuestionsWordsFindTheNamesThatAbbreviateThem() {
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("ord.cust_ord_hdr", null, List.of(), "ord_no", "ord_dt", "tot_amt"));
        catalog.add(table("wh.whse_mstr", null, List.of(), "whse_nm", "cty"));
        catalog.add(table("hr.emp_mstr", null, List.of(), "first_nm", "hire_dt"));
        catalog.add(table("fin.gl_acct", null, List.of(), "acct_no", "acct_nm"));
        SchemaIndex index = index(catalog);

        assertEquals("ord.cust_ord_hdr", tables(index.search("customer order headers", null, List.of(), 4)).get(0));
        assertEquals("wh.whse_mstr", tables(index.search("Which warehouses are in Leeds?", null, List.of(), 4)).get(0));
        assertEquals("hr.emp_mstr", tables(index.search("employees hired last year", null, List.of(), 4)).get(0));
        assertEquals("fin.gl_acct", tables(index.search("ledger accounts", null, List.of(), 4)).get(0));
        // Two letters abbreviate too many words to count.
        assertTrue(index.search("gleaming", null, List.of(), 4).isEmpty());
    }

    @Test
    void aNameMadeOfTheInitialsOfTheQuestionsWordsIsFound() {
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("pur.po_hdr", null, List.of(), "po_no", "po_dt", "po_tot"));
        catalog.add(table("pur.rfq_hdr", null, List.of(), "rfq_no", "issue_dt"));
        catalog.add(table("mkt.nps_srvy", null, List.of(), "nps_scr", "srvy_dt"));
        catalog.add(table("svc.sla_def", null, List.of(), "prio_cd", "resp_hrs"));
        catalog.add(table("ord.promoCode", null, List.of(), "promo_cd", "pct_off"));
        catalog.add(table("fin.gl_acct", null, List.of(), "acct_no", "acct_nm"));
        catalog.add(table("crm.cust_mstr", null, List.of(), "cust_nm", "loyaltyLvl"));
        SchemaIndex index = index(catalog);

        assertThat(tables(index.search("Which purchase orders are still open?", null, List.of(), 4)).get(0))
                .isEqualTo("pur.po_hdr");
        // "for" counts inside the run, as initialisms spell it.
        assertThat(tables(index.search("requests for quotation awaiting answers", null, List.of(), 4)).get(0))
                .isEqualTo("pur.rfq_hdr");
        assertThat(tables(index.search("our net promoter score by month", null, List.of(), 4)).get(0))
                .isEqualTo("mkt.nps_srvy");
        assertThat(tables(index.search("tickets that breached the service level agreement", null, List.of(), 4)).get(0))
                .isEqualTo("svc.sla_def");
        // Two letters are a weaker clue (gold loyalty is not a general ledger): the words themselves come first.
        assertThat(tables(index.search("customers in the gold loyalty tier", null, List.of(), 4)).get(0))
                .isEqualTo("crm.cust_mstr");
    }

    @Test
    void aPlaceholderLetterDoesNotAskForTheCopyNamedWithIt() {
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("prod.item_mstr", null, List.of(), "sku", "item_desc"));
        catalog.add(table("prod.item_mstr_x", null, List.of(), "sku", "item_desc"));
        SchemaIndex index = index(catalog);

        assertThat(tables(index.search("stock movements of product item X", null, List.of(), 4)).get(0))
                .isEqualTo("prod.item_mstr");
    }

    @Test
    void aQuestionsVerbFindsTheNounANameMakesOfIt() {
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("public.rental", null, List.of(), "rental_date", "return_date"));
        catalog.add(table("public.payment", null, List.of(), "amount", "payment_date"));
        catalog.add(table("public.film", null, List.of(), "title", "rating"));
        catalog.add(table("public.renewal", null, List.of(), "renewed_on"));
        SchemaIndex index = index(catalog);

        // rented -> rent -> rental; pay -> payment.
        assertThat(tables(index.search("films nobody rented", null, List.of(), 4))).containsExactlyInAnyOrder("public.film",
                "public.rental");
        assertThat(tables(index.search("what did they pay", null, List.of(), 4))).containsExactly("public.payment");
        // renewal does not start with rent.
        assertThat(tables(index.search("who rents", null, List.of(), 4))).containsExactly("public.rental");
    }

    @Test
    void aQuestionAskingForACopyFindsItFirst() {
        SchemaIndex index = index(warehouse("People who buy"));

        assertEquals("sales.orders_history", tables(index.search("orders history", null, List.of(), 3)).get(0));
        assertEquals("sales.orders_daily_snapshot",
                tables(index.search("daily snapshot of the orders", null, List.of(), 3)).get(0));
        // A year alone does not ask for the backup of 2023.
        assertEquals("sales.orders", tables(index.search("orders of 2023", null, List.of(), 3)).get(0));
    }

    /** Stores and products, linked by orders and their lines, and tables that share their words but link nothing. */
    private static List<CatalogTable> shop(boolean secondChain) {
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("shop.store", null, List.of(), "store_id", "name", "city"));
        catalog.add(table("shop.product", null, List.of(), "product_id", "name", "price"));
        catalog.add(table("shop.purchase", null, List.of("shop.store"), "purchase_id", "placed_on"));
        catalog.add(table("shop.purchase_line", null, List.of("shop.purchase", "shop.product"), "purchase_line_id",
                "quantity"));
        for (String other : List.of("store_event", "store_opening_hours", "product_image", "product_tag")) {
            catalog.add(table("shop." + other, null, List.of(), "name", "note"));
        }
        if (secondChain) {
            catalog.add(table("shop.transfer", null, List.of("shop.store"), "transfer_id", "sent_on"));
            catalog.add(table("shop.transfer_line", null, List.of("shop.transfer", "shop.product"), "transfer_line_id",
                    "quantity"));
        }
        return catalog;
    }

    @Test
    void theOnlyChainOfTwoTablesBetweenTheBestTwoComesInTheFirstFive() {
        List<String> found = tables(index(shop(false)).search("Which store sold the most products?", null, List.of(), 5));

        assertEquals(List.of("shop.store", "shop.product"), found.subList(0, 2), found.toString());
        assertTrue(found.containsAll(List.of("shop.purchase", "shop.purchase_line")), found.toString());
    }

    @Test
    void twoChainsBetweenTheBestTwoLiftNeither() {
        // Purchases or transfers: the question does not say which, so the tables its words match keep their places.
        List<String> found = tables(index(shop(true)).search("Which store sold the most products?", null, List.of(), 5));

        assertEquals(List.of("shop.store", "shop.product"), found.subList(0, 2), found.toString());
        assertTrue(found.stream().noneMatch(table -> table.contains("purchase") || table.contains("transfer")),
                found.toString());
    }

    @Test
    void theTablesTheBestOnesReferenceJoinInButNeverPassThem() {
        SchemaIndex index = index(warehouse("People who buy"));

        List<SchemaIndex.Hit> hits = index.search("order lines quantity", null, List.of(), 3);

        assertEquals(List.of("sales.order_items", "sales.orders", "sales.customers"), tables(hits));
        assertTrue(hits.get(0).score() >= hits.get(1).score() && hits.get(1).score() >= hits.get(2).score(), hits.toString());
    }

    /** Invoices, payments, refunds, credit notes (of {@code creditNoteColumns}) and the currency they point at. */
    private static List<CatalogTable> ledger(String... creditNoteColumns) {
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("public.invoice", null, List.of(), "invoice_id", "amount"));
        catalog.add(table("public.payment", null, List.of(), "payment_id", "amount"));
        catalog.add(table("public.refund", null, List.of(), "refund_id", "amount"));
        catalog.add(table("public.credit_note", null, List.of("public.currency"), creditNoteColumns));
        catalog.add(table("public.currency", null, List.of(), "code", "symbol"));
        return catalog;
    }

    @Test
    void theTablesTheFourthBestReferencesJoinInToo() {
        List<CatalogTable> catalog = ledger("credit_note_id", "amount", "currency_code");

        // The credit notes come fourth (two words of their name, one asked); the currency they point at joins in.
        assertEquals(List.of("public.invoice", "public.payment", "public.refund", "public.credit_note", "public.currency"),
                tables(index(catalog).search("invoices payments refunds credit", null, List.of(), 5)));
    }

    /**
     * Sales reps, who are workers, who are parties: each table's key is the next one's ({@code extended}), and only the
     * parties hold names, unless {@code repColumns} give the reps a name of their own. Quotas per rep and quarter, and
     * tables sharing the question's other words.
     */
    private static List<CatalogTable> staff(String... repColumns) {
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(new CatalogTable(new Relation("crm", "party", "r", null),
                List.of(new CatalogColumn("party_id", "int", ""), new CatalogColumn("FirstName", "text", ""),
                        new CatalogColumn("LastName", "text", "")),
                List.of()));
        catalog.add(new CatalogTable(new Relation("hr", "worker", "r", null),
                List.of(new CatalogColumn("party_id", "int", ""), new CatalogColumn("hired_on", "date", "")),
                List.of("crm.party"), List.of("crm.party")));
        List<CatalogColumn> rep = new ArrayList<>(List.of(new CatalogColumn("worker_id", "int", "")));
        Arrays.stream(repColumns).forEach(column -> rep.add(new CatalogColumn(column, "text", "")));
        catalog.add(new CatalogTable(new Relation("sales", "rep", "r", null), rep,
                List.of("hr.worker", "sales.territory"), List.of("hr.worker")));
        catalog.add(table("sales.territory", null, List.of(), "territory_id", "region"));
        catalog.add(table("sales.rep_quota", null, List.of("sales.rep"), "worker_id", "quarter", "quota"));
        catalog.add(table("sales.region_quota", null, List.of(), "region", "quarter", "quota"));
        catalog.add(table("public.quarter_calendar", null, List.of(), "quarter", "first_day", "last_day"));
        catalog.add(table("public.beat_schedule", null, List.of(), "beat", "starts_at"));
        return catalog;
    }

    @Test
    void theTableNamingASubtypesRowsComesInTheFirstFiveThoughTwoKeysAway() {
        // The reps' names are the parties', two keys away: neither a word nor the join path finds them.
        List<String> found = tables(index(staff("quota")).search("Which reps beat their quota last quarter?", null,
                List.of(), 5));

        assertThat(found).contains("sales.rep", "sales.rep_quota", "crm.party").hasSize(5);
        assertThat(found.indexOf("crm.party")).isEqualTo(4);
    }

    @Test
    void aSubtypeWithANameOfItsOwnLiftsNoTableThatExtendsIt() {
        assertThat(tables(index(staff("quota", "display_name")).search("Which reps beat their quota last quarter?",
                null, List.of(), 5))).contains("sales.rep", "sales.rep_quota").doesNotContain("crm.party");
    }

    @Test
    void aTableThePolicyRefusesIsNeverLiftedAsTheNamer() {
        SchemaIndex index = SchemaIndex.build(staff("quota"), new TablePolicy(Optional.empty(),
                Optional.of(List.of("crm.*"))), new ColumnPolicy(Optional.empty()), 1000);

        assertThat(tables(index.search("Which reps beat their quota last quarter?", null, List.of(), 10)))
                .contains("sales.rep").doesNotContain("crm.party");
    }

    @Test
    void aNameColumnThePolicyHidesMakesNoNamer() {
        // The parties' names hidden, the parties no longer name the reps: a hidden column steers no search.
        SchemaIndex index = SchemaIndex.build(staff("quota"), new TablePolicy(Optional.empty(), Optional.empty()),
                new ColumnPolicy(Optional.of(List.of("crm.party.FirstName", "crm.party.LastName"))), 1000);

        assertThat(tables(index.search("Which reps beat their quota last quarter?", null, List.of(), 5)))
                .contains("sales.rep").doesNotContain("crm.party");
    }

    @Test
    void tablesThatExtendEachOtherEndTheirChain() {
        // Two tables whose keys reference each other (a one-to-one pair) extend each other: the chain stops, the search
        // answers, and the one with the name comes in for the other.
        List<CatalogTable> catalog = new ArrayList<>(staff("quota"));
        catalog.add(new CatalogTable(new Relation("crm", "badge", "r", null),
                List.of(new CatalogColumn("badge_id", "int", ""), new CatalogColumn("holder_name", "text", "")),
                List.of("crm.badge_holder"), List.of("crm.badge_holder")));
        catalog.add(new CatalogTable(new Relation("crm", "badge_holder", "r", null),
                List.of(new CatalogColumn("badge_id", "int", ""), new CatalogColumn("quota", "int", "")),
                List.of("crm.badge"), List.of("crm.badge")));

        assertThat(tables(index(catalog).search("badge holder quota", null, List.of(), 5))).startsWith("crm.badge_holder")
                .contains("crm.badge");
    }

    @Test
    void aViewMatchingMoreOfTheQuestionThanAnyTableLeavesTheJoinPathToTheBaseTables() {
        List<CatalogTable> catalog = ledger("credit_note_id", "amount", "currency_code", "issued_on", "reason",
                "approved_by");
        // A reporting view over three of them, holding three words of the question.
        catalog.add(new CatalogTable(new Relation("public", "credit_payment_refund_list", "view", null),
                List.of(new CatalogColumn("payment_id", "int", ""),
                        new CatalogColumn("refund_id", "int", ""), new CatalogColumn("credit_id", "int", ""),
                        new CatalogColumn("amount", "numeric", "")),
                List.of()));

        List<String> found = tables(index(catalog).search("invoices payments refunds credit", null, List.of(), 6));

        // The view follows the base tables before the best four are chosen, so the credit notes are among them and
        // the currency they point at joins in ahead of the view.
        assertEquals(List.of("public.invoice", "public.payment", "public.refund", "public.credit_note", "public.currency",
                "public.credit_payment_refund_list"), found);
    }

    @Test
    void copiesShareTheirOriginalsVectorAndARefreshEmbedsOnlyWhatChanged() {
        Embeddings model = Embeddings.inProcess();
        SchemaIndex first = index(warehouse("People who buy")).embedded(model, null);
        // Three tables of their own; the six copies of orders share its vector.
        assertEquals(3, first.modelCalls());
        assertEquals(6, first.copies());

        SchemaIndex unchanged = index(warehouse("People who buy")).embedded(model, first);
        SchemaIndex changed = index(warehouse("People and companies who buy")).embedded(model, unchanged);

        assertEquals(0, unchanged.modelCalls());
        assertEquals(1, changed.modelCalls());
        assertEquals("sales.customers",
                tables(changed.search("companies", model.embed("companies that buy"), List.of(), 1)).get(0));
    }

    @Test
    void aQuestionWordMatchingATableInManyWaysCountsOnceAgainstATableMatchingMoreOfTheQuestion() {
        // "refund" is in the bank statement lines' comment and columns as a word and as two abbreviations (ref, rfnd),
        // yet it says only that; the returns table holds the refund, the amount and the month the question asks for.
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("fin.bank_stmt_ln", "Bank statement lines, refunds among them", List.of(), "bank_ref",
                "rfnd_ref", "refund_txt"));
        catalog.add(table("ord.rtrn_auth", null, List.of(), "rma_no", "rfnd_amt", "rtrn_mth"));
        for (String other : List.of("cust_mstr", "item_mstr", "whse_mstr", "emp_mstr")) {
            catalog.add(table("ops." + other, null, List.of(), "nm", "crt_dt"));
        }
        SchemaIndex index = index(catalog);

        List<String> found = tables(index.search("What is the refunded amount per month?", null, List.of(), 10));

        assertEquals("ord.rtrn_auth", found.get(0), found.toString());
    }

    /** A rental shop's tables, as the public Pagila schema names them: no comments, no abbreviations. */
    private static List<CatalogTable> shop() {
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("public.country", null, List.of(), "country_id", "country"));
        catalog.add(table("public.city", null, List.of("public.country"), "city_id", "city", "country_id"));
        catalog.add(table("public.address", null, List.of("public.city"), "address_id", "address", "district",
                "city_id", "postal_code", "phone"));
        catalog.add(table("public.customer", null, List.of("public.address"), "customer_id", "first_name", "last_name",
                "email", "address_id", "active"));
        catalog.add(table("public.staff", null, List.of("public.address"), "staff_id", "first_name", "last_name",
                "address_id", "store_id"));
        catalog.add(table("public.store", null, List.of("public.address"), "store_id", "manager_staff_id", "address_id"));
        catalog.add(table("public.film", null, List.of(), "film_id", "title", "length", "rental_rate"));
        catalog.add(table("public.inventory", null, List.of("public.film", "public.store"), "inventory_id", "film_id",
                "store_id"));
        catalog.add(table("public.rental", null, List.of("public.inventory", "public.customer", "public.staff"),
                "rental_id", "rental_date", "inventory_id", "customer_id", "return_date", "staff_id"));
        catalog.add(table("public.payment", null, List.of("public.customer", "public.staff", "public.rental"),
                "payment_id", "customer_id", "staff_id", "rental_id", "amount", "payment_date"));
        return catalog;
    }

    @Test
    void theModelReadsTheWordsOfANameThatRunsThemTogether() {
        // Names ported from SalesOrderHeader without quotes and no comments: the words are all the model has. The
        // question's words match no name, so the ranking by meaning alone decides.
        List<CatalogTable> catalog = new ArrayList<>();
        for (String name : List.of("salesorderheader", "purchaseorderheader", "productinventory", "employeepayhistory",
                "shoppingcartitem", "creditcard", "businessentityaddress", "workorderrouting", "productreview",
                "unitmeasure", "specialoffer", "salesterritory")) {
            catalog.add(table("aw." + name, null, List.of(), name + "id", "modifieddate"));
        }
        Embeddings model = Embeddings.inProcess();
        SchemaIndex index = index(catalog).embedded(model, null);

        // Read whole, productinventory came second to the purchase orders, and specialoffer not in the first three.
        assertEquals("aw.productinventory", tables(index.search("", model.embed("stock on hand"), List.of(), 3)).get(0));
        assertEquals("aw.specialoffer",
                tables(index.search("", model.embed("discounts and promotions"), List.of(), 3)).get(0));
    }

    @Test
    void theTableTheModelFindsNearestIsAmongTheFirstThoughNoWordOfTheQuestionNamesIt() {
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("purchasing.vendor", "Companies from whom we purchase parts", List.of(), "vendor_id",
                "account_number", "credit_rating", "preferred"));
        catalog.add(table("purchasing.product_vendor", "Products each vendor can supply, with lead times",
                List.of("purchasing.vendor", "production.product", "production.unit_measure"), "vendor_id", "product_id",
                "standard_price", "unit_measure_code", "min_order_qty"));
        catalog.add(table("production.product", "Products sold or used to make sold products", List.of(), "product_id",
                "name", "list_price", "standard_cost", "color"));
        catalog.add(table("production.unit_measure", "Unit of measure lookup table", List.of(), "unit_measure_code",
                "name"));
        catalog.add(table("production.bill_of_materials", "Items required to make bicycles", List.of("production.product"),
                "product_assembly_id", "component_id", "per_assembly_qty"));
        catalog.add(table("production.product_inventory", "Product inventory information", List.of("production.product"),
                "product_id", "location_id", "shelf", "quantity"));
        catalog.add(table("sales.special_offer", "Sale discounts lookup table", List.of(), "special_offer_id",
                "description", "discount_pct"));
        Embeddings model = Embeddings.inProcess();
        SchemaIndex index = index(catalog).embedded(model, null);
        String supply = "Who can supply us with chainrings, and at what standard price?";

        // The vendors hold no word of the question (the products they supply do), yet they are the model's nearest
        // table: they come before the units of measure the product vendors reference (they came after, at half weight).
        assertEquals(List.of("purchasing.product_vendor", "production.product", "purchasing.vendor"),
                tables(index.search(supply, model.embed(supply), List.of(), 3)));
    }

    @Test
    void aQuestionsWordNoNameHoldsFindsTheNameWordNearestInMeaning() {
        Embeddings model = Embeddings.inProcess();
        SchemaIndex index = index(shop()).embedded(model, null);
        String london = "What are the postal codes of customer addresses in London?";
        String stock = "Is the film Alien Center in stock at store 2?";

        // London is a city, stock is inventory: no name holds, abbreviates or derives from either word.
        assertThat(tables(index.search(london, model.embed(london), List.of(), 5))).contains("public.address",
                "public.city");
        // The film the question names first (the model's nearest table counts as much as the words' best), then the
        // inventory its stock is, ahead of the store.
        assertEquals(List.of("public.film", "public.inventory", "public.store"),
                tables(index.search(stock, model.embed(stock), List.of(), 3)));
    }

    @Test
    void aWordNamingTheKindOfATablesValuesFindsTheTable() {
        // Pagila's shape: no name says "genre", but the categories' values are genres; the languages' are not.
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("public.film", null, List.of("public.language"), "film_id", "title", "language_id"));
        catalog.add(table("public.category", null, List.of(), "category_id", "name"));
        catalog.add(table("public.film_category", null, List.of("public.film", "public.category"), "film_id",
                "category_id"));
        catalog.add(table("public.language", null, List.of(), "language_id", "name"));
        for (String other : List.of("film_actor", "film_text", "film_list", "film_review", "film_award", "film_stock")) {
            catalog.add(table("public." + other, null, List.of("public.film"), "film_id", "title", "note"));
        }
        Map<String, Map<String, List<String>>> values = Map.of(
                "public.category", Map.of("name", List.of("Action", "Animation", "Children", "Classics", "Comedy",
                        "Documentary", "Drama", "Family", "Horror", "Sci-Fi")),
                "public.language", Map.of("name", List.of("English", "Italian", "Japanese", "Mandarin", "French")));
        Embeddings model = Embeddings.inProcess();
        SchemaIndex index = SchemaIndex.build(catalog, values, new TablePolicy(Optional.empty(), Optional.empty()),
                new ColumnPolicy(Optional.empty()), 1000).embedded(model, null);
        String genre = "How many films are in each genre?";
        String budget = "Which films had the biggest budget?";

        List<String> byGenre = tables(index.search(genre, model.embed(genre), List.of(), 5));
        assertThat(byGenre).contains("public.category", "public.film_category");
        assertThat(byGenre).doesNotContain("public.language");
        // A word of another kind points at no table of values.
        assertThat(tables(index.search(budget, model.embed(budget), List.of(), 5))).doesNotContain("public.category",
                "public.language");

        // The values of a hidden column steer nothing: the categories are then found no better than without values.
        SchemaIndex hidden = SchemaIndex.build(catalog, values, new TablePolicy(Optional.empty(), Optional.empty()),
                new ColumnPolicy(Optional.of(List.of("category.name"))), 1000).embedded(model, null);
        assertThat(tables(hidden.search(genre, model.embed(genre), List.of(), 5))).doesNotContain("public.category");
    }

    @Test
    void aQuestionOfManyUnknownWordsHasOnlyItsFirstEightLookedUpByMeaning() {
        Embeddings model = Embeddings.inProcess();
        SchemaIndex index = index(shop()).embedded(model, null);
        StringBuilder madeUp = new StringBuilder();
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 30; i++) {
            for (int c = 0; c < 9; c++) {
                madeUp.append((char) ('a' + random.nextInt(26)));
            }
            madeUp.append(' ');
        }
        String question = madeUp.toString();

        long before = index.questionWordsEmbedded();
        assertThat(tables(index.search(question, model.embed(question), List.of(), 5))).hasSize(5);
        assertEquals(WordMeanings.MOST_PER_QUESTION, index.questionWordsEmbedded() - before);
        // Asked again, the words are remembered: nothing more is embedded.
        index.search(question, model.embed(question), List.of(), 5);
        assertEquals(WordMeanings.MOST_PER_QUESTION, index.questionWordsEmbedded() - before);
        // A ninth new word is not looked up, an early one is.
        String late = question.substring(0, 80) + " London";
        index.search(late, model.embed(late), List.of(), 5);
        assertEquals(WordMeanings.MOST_PER_QUESTION, index.questionWordsEmbedded() - before);
        String early = "London " + question.substring(0, 80);
        index.search(early, model.embed(early), List.of(), 5);
        assertEquals(WordMeanings.MOST_PER_QUESTION + 1, index.questionWordsEmbedded() - before);
        // A word longer than forty letters is no word anyone asks with: not looked up; forty letters are.
        String longest = "q".repeat(WordMeanings.LONGEST);
        index.search(longest + "z customers", model.embed(longest + "z customers"), List.of(), 5);
        assertEquals(WordMeanings.MOST_PER_QUESTION + 1, index.questionWordsEmbedded() - before);
        index.search(longest + " customers", model.embed(longest + " customers"), List.of(), 5);
        assertEquals(WordMeanings.MOST_PER_QUESTION + 2, index.questionWordsEmbedded() - before);
        // Rebuilt (a refresh), the index still knows the words it was asked: a question asked again costs no more.
        SchemaIndex rebuilt = index(shop()).embedded(model, index);
        rebuilt.search(question, model.embed(question), List.of(), 5);
        assertEquals(0, rebuilt.questionWordsEmbedded());
    }

    @Test
    void questionsInOtherScriptsOrOfOddWordsAreRankedLikeAnyOther() {
        Embeddings model = Embeddings.inProcess();
        SchemaIndex index = index(shop()).embedded(model, null);
        List<String> tables = shop().stream().map(table -> table.relation().schema() + "." + table.relation().name())
                .toList();
        for (String question : List.of("Welche Kunden wohnen in Kanada?", "顧客の住所はどこですか", "Где живут клиенты?",
                "😀 films 😀", "2006 2007 2008", "x".repeat(41) + " customers", "ǅungla Ⅻ ﬁlms",
                "rentals" + "\u0301".repeat(5))) {
            List<SchemaIndex.Hit> hits = index.search(question, model.embed(question), List.of(), 5);
            assertThat(tables(hits)).as(question).hasSize(5).isSubsetOf(tables);
        }
    }

    private static List<CatalogTable> films() {
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(table("public.film", null, List.of("public.language"), "film_id", "title", "language_id"));
        catalog.add(table("public.language", null, List.of(), "language_id", "name"));
        catalog.add(table("public.category", null, List.of(), "category_id", "name"));
        catalog.add(table("public.film_category", null, List.of("public.film", "public.category"), "film_id",
                "category_id"));
        for (String other : List.of("film_actor", "film_text", "film_review", "film_award", "actor", "inventory")) {
            catalog.add(table("public." + other, null, List.of("public.film"), "film_id", "title", "note"));
        }
        return catalog;
    }

    @Test
    void aQuestionNamingAColumnsValueFindsItsTable() {
        Map<String, Map<String, List<String>>> values = Map.of(
                "public.language", Map.of("name", List.of("English", "French", "German")),
                "public.category", Map.of("name", List.of("Horror", "Comedy", "Sci-Fi", "New Zealand")));
        SchemaIndex withValues = SchemaIndex.build(films(), values, new TablePolicy(Optional.empty(), Optional.empty()),
                new ColumnPolicy(Optional.empty()), 1000);

        assertThat(tables(withValues.search("Which films are in French?", null, List.of(), 5)))
                .contains("public.film", "public.language");
        assertThat(tables(withValues.search("Which films are horror movies?", null, List.of(), 5)))
                .contains("public.film", "public.category", "public.film_category");
        // Without the values nothing in the question names the languages.
        assertThat(tables(index(films()).search("Which films are in French?", null, List.of(), 5)))
                .doesNotContain("public.language");
        // A value of two words needs both.
        assertThat(tables(withValues.search("new releases", null, List.of(), 10))).doesNotContain("public.category");
        assertThat(tables(withValues.search("sci-fi", null, List.of(), 1))).containsExactly("public.category");
    }

    @Test
    void valuesOfHiddenColumnsAndRefusedTablesAreNeitherIndexedNorFound() {
        List<CatalogTable> catalog = new ArrayList<>(films());
        catalog.add(table("vault.cellar", null, List.of(), "cellar_id", "shelf"));
        catalog.add(table("public.courier", null, List.of(), "courier_id", "zone", "phone"));
        Map<String, Map<String, List<String>>> values = Map.of(
                "vault.cellar", Map.of("shelf", List.of("Marblefin")),
                "public.courier", Map.of("zone", List.of("Quillback"), "phone", List.of("Sturgeonite")));
        SchemaIndex index = SchemaIndex.build(catalog, values,
                new TablePolicy(Optional.empty(), Optional.of(List.of("vault.*"))),
                new ColumnPolicy(Optional.of(List.of("*.phone"))), 1000);

        assertThat(index.entries()).flatExtracting(SchemaIndex.Entry::values).containsExactly("Quillback");
        assertThat(tables(index.search("quillback", null, List.of(), 5))).containsExactly("public.courier");
        assertThat(index.search("marblefin", null, List.of(), 5)).isEmpty();
        assertThat(index.search("sturgeonite", null, List.of(), 5)).isEmpty();
    }

    @Test
    void onAMariaDbSourceUnqualifiedPolicyEntriesNameTheTablesOfItsOwnDatabase() {
        // A MySQL URL's database plays PostgreSQL's public: "gadget_cost" and "gadget_buyer.email" name tables of
        // shop; db-qualified entries in another case work too; another database's table of the same name is not hit.
        List<CatalogTable> catalog = new ArrayList<>();
        catalog.add(new CatalogTable(new Relation("shop", "gadget", "table", "Gadgets on sale", true),
                List.of(new CatalogColumn("name", "varchar(40)", "")), List.of("shop.gadget_cost", "shop.Gadget_Secret")));
        catalog.add(new CatalogTable(new Relation("shop", "gadget_cost", "table", "Purchase cost", true),
                List.of(new CatalogColumn("cost", "decimal(10,2)", "")), List.of("shop.gadget")));
        catalog.add(new CatalogTable(new Relation("shop", "gadget_buyer", "table", "Buyers", true),
                List.of(new CatalogColumn("buyer_name", "varchar(40)", ""), new CatalogColumn("Email", "varchar(80)", "")),
                List.of()));
        catalog.add(new CatalogTable(new Relation("shop", "Gadget_Secret", "table", "Secret codes", true),
                List.of(new CatalogColumn("code", "varchar(8)", "")), List.of()));
        catalog.add(new CatalogTable(new Relation("other", "gadget_cost", "table", "Cost elsewhere", false),
                List.of(new CatalogColumn("cost", "decimal(10,2)", "")), List.of()));
        Map<String, Map<String, List<String>>> values = Map.of("shop.gadget_buyer",
                Map.of("Email", List.of("Quillmail"), "buyer_name", List.of("Annabeth")));
        SchemaIndex index = SchemaIndex.build(catalog, values,
                new TablePolicy(Optional.empty(), Optional.of(List.of("GADGET_COST", "SHOP.gadget_secret"))),
                new ColumnPolicy(Optional.of(List.of("gadget_buyer.EMAIL"))), 1000);

        assertThat(index.entries()).extracting(SchemaIndex.Entry::table)
                .containsExactly("shop.gadget", "shop.gadget_buyer", "other.gadget_cost");
        assertThat(index.entries().get(0).references()).isEmpty();
        assertThat(index.entries()).flatExtracting(SchemaIndex.Entry::values).containsExactly("Annabeth");
        assertThat(tables(index.search("purchase cost secret codes", null, List.of(), 5)))
                .containsExactly("other.gadget_cost");
        assertThat(index.search("email quillmail", null, List.of(), 5)).isEmpty();
    }
}
