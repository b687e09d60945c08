package io.sqlagent.builtin;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.sqlagent.agent.ScriptedModel;

/** {@code introspect_schema} over REST on Chinook, with the contract's names, descriptions and shapes. */
@QuarkusTest
@ScriptedModel
class IntrospectSchemaToolTest {

    @Test
    void keepsTheContractDescriptionAndParameters() {
        given().when().get("/api/tools/introspect_schema")
                .then().statusCode(200)
                .body("description", is(
                        "Get detailed schema information about database tables. Can inspect a specific table or list all available tables."))
                .body("parameters.properties.table_name.type", is("string"))
                .body("parameters.properties.table_name.description",
                        is("Optional: The name of a specific table to inspect. If not provided, lists all tables."))
                .body("parameters.properties.include_sample_data.type", is("boolean"))
                .body("parameters.properties.include_sample_data.default", is(false))
                .body("parameters.required", nullValue());
    }

    @Test
    void listsTheTables() {
        given().contentType(ContentType.JSON).body("{}").when().post("/api/tools/introspect_schema")
                .then().statusCode(200)
                .body("result.count", is(11))
                .body("result.tables", hasItems("album", "artist", "track", "invoice_line"));
    }

    @Test
    void describesOneTableWithSampleRows() {
        given().contentType(ContentType.JSON).body("{\"table_name\":\"invoice\",\"include_sample_data\":true}")
                .when().post("/api/tools/introspect_schema")
                .then().statusCode(200)
                .body("result.table", is("invoice"))
                .body("result.columns.find { it.name == 'customer_id' }.references", is("customer.customer_id"))
                .body("result.columns.find { it.name == 'invoice_id' }.primary_key", is(true))
                .body("result.relationships.find { it.type == 'hasMany' }.related_table", is("invoice_line"))
                .body("result.relationships.find { it.type == 'belongsTo' }.related_table", is("customer"))
                .body("result.sample_data", hasSize(3))
                .body("result.sample_data[0].invoice_id", is(1));
    }

    @Test
    void withoutSampleDataTheSampleIsEmpty() {
        given().contentType(ContentType.JSON).body("{\"table_name\":\"genre\"}")
                .when().post("/api/tools/introspect_schema")
                .then().statusCode(200)
                .body("result.sample_data", hasSize(0));
    }

    @Test
    void anUnknownTableIsAFailureListingTheTables() {
        given().contentType(ContentType.JSON).body("{\"table_name\":\"orders\"}")
                .when().post("/api/tools/introspect_schema")
                .then().statusCode(422)
                .body("message",
                        startsWith("Table 'orders' does not exist or cannot be read. Tables: album, artist, customer"));
    }

    @Test
    void aNameThatLooksLikeSqlIsJustAnUnknownTable() {
        given().contentType(ContentType.JSON).body("{\"table_name\":\"track; DROP TABLE track\"}")
                .when().post("/api/tools/introspect_schema")
                .then().statusCode(422)
                .body("message", startsWith("Table 'track; DROP TABLE track' does not exist"));
    }
}
