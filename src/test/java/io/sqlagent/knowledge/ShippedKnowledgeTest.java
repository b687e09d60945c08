package io.sqlagent.knowledge;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.guard.SqlVerdict;
import io.sqlagent.sql.run.QueryResult;
import io.sqlagent.sql.run.QueryRunner;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;

/** Every query pattern shipped in {@code knowledge/} passes the guard and answers on Chinook. */
@QuarkusTest
@ScriptedModel
class ShippedKnowledgeTest {

    @Inject
    SourceRegistry sources;

    @Inject
    QueryRunner runner;

    @Inject
    SqlGuard guard;

    @Test
    void everyShippedPatternRunsOnChinook() {
        List<KnowledgeLoader.Document> documents = KnowledgeLoader.shipped();
        assertFalse(documents.isEmpty(), "no shipped knowledge files");
        Source source = sources.find("default").orElseThrow();
        int patterns = 0;
        for (KnowledgeLoader.Document document : documents) {
            KnowledgeFile file = KnowledgeLoader.parse(document);
            for (KnowledgeFile.Pattern pattern : file.queryPatterns()) {
                SqlVerdict verdict = guard.check(pattern.sql());
                assertTrue(verdict.allowed(), pattern.name() + ": " + verdict.reason());
                QueryResult result = runner.run(source, pattern.sql()).await().atMost(Duration.ofSeconds(30));
                assertTrue(result.rowCount() > 0, pattern.name() + " returned no rows");
                assertFalse(pattern.tablesUsed().isEmpty(), pattern.name() + " lists no tables");
                patterns++;
            }
            assertFalse(file.rules().isEmpty() && file.tables().isEmpty(), document.name() + " has no notes or rules");
        }
        assertTrue(patterns >= 6 && patterns <= 10, patterns + " shipped patterns");
    }
}
