package io.sqlagent.knowledge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which knowledge files are found, and how a file reads, without the service. */
class KnowledgeFilesTest {

    @Test
    void aDirectoryGivesItsJsonFilesInNameOrder(@TempDir Path directory) throws IOException {
        Files.writeString(directory.resolve("b.json"), "{}");
        Files.writeString(directory.resolve("a.json"), "{\"rules\": []}");
        Files.writeString(directory.resolve("notes.txt"), "not knowledge");
        List<KnowledgeLoader.Document> documents = KnowledgeLoader.fromFilesystem(directory);
        assertEquals(List.of(directory.resolve("a.json").toString(), directory.resolve("b.json").toString()),
                documents.stream().map(KnowledgeLoader.Document::name).toList());
        assertTrue(KnowledgeLoader.fromFilesystem(directory.resolve("missing")).isEmpty());
    }

    @Test
    void sectionsAreOptionalAndNotesJoinTheDescription() {
        KnowledgeFile file = KnowledgeLoader.parse(new KnowledgeLoader.Document("t.json",
                "{\"tables\": [{\"name\": \"track\", \"description\": \"Songs.\", \"notes\": [\"milliseconds is the length\"]}]}"));
        assertEquals(List.of(), file.queryPatterns());
        assertEquals("Songs.\n- milliseconds is the length", file.tables().get(0).body());
    }

    @Test
    void theChinookFileIsShipped() {
        assertEquals(List.of("classpath:knowledge/chinook.json"),
                KnowledgeLoader.shipped().stream().map(KnowledgeLoader.Document::name).toList());
    }
}
