package io.sqlagent.knowledge;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;

/** With {@code sqlagent.learning.enabled=false} the save tools are neither listed nor callable; search still works. */
@QuarkusTest
@TestProfile(LearningDisabledTest.Disabled.class)
class LearningDisabledTest {

    /** Learning switched off. */
    public static class Disabled implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sqlagent.learning.enabled", "false");
        }
    }

    @Test
    void theSaveToolsAreNotOffered() {
        given().when().get("/api/tools").then().statusCode(200)
                .body("name", not(hasItem("save_learning")))
                .body("name", not(hasItem("save_validated_query")))
                .body("name", hasItem("search_knowledge"));
        given().contentType(ContentType.JSON)
                .body("{\"title\":\"t\",\"description\":\"d\",\"category\":\"schema_fix\"}")
                .when().post("/api/tools/save_learning").then().statusCode(404);
        given().contentType(ContentType.JSON)
                .body("{\"name\":\"n\",\"question\":\"q\",\"sql\":\"SELECT 1\",\"summary\":\"s\",\"tables_used\":[]}")
                .when().post("/api/tools/save_validated_query").then().statusCode(404);
        given().when().get("/api/tools/save_learning").then().statusCode(404);
    }

    @Test
    void searchStillFindsTheShippedKnowledge() {
        given().contentType(ContentType.JSON).body("{\"query\":\"revenue by country\"}")
                .when().post("/api/tools/search_knowledge").then().statusCode(200)
                .body("result.query_patterns[0].name", is("revenue_by_country"));
    }
}
