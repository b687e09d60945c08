package io.sqlagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the project's Markdown (README.md, CHANGELOG.md, docs/*.md, k8s/*.md)
 * resolves: the file or directory exists and, for a {@code #fragment} into Markdown, a heading of
 * that file has that anchor as GitHub writes it. Links are read as CommonMark reads them, so a
 * link shown inside code is not a link.
 */
class DocumentationLinksTest {

    private static final Parser PARSER = Parser.builder().build();

    @Test
    void everyRelativeLinkOfTheDocsResolves() throws IOException {
        List<Path> files = markdownFiles();
        assertTrue(files.contains(Path.of("README.md")) && files.size() > 5, "found " + files);
        List<String> broken = new ArrayList<>();
        for (Path file : files) {
            for (String target : links(file)) {
                String problem = problem(file, target);
                if (problem != null) {
                    broken.add(file + ": " + target + ": " + problem);
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void anchorsAreWrittenAsGitHubWritesThem() {
        assertEquals(Set.of("workspace-tools-sqlite-files-local-files-and-vectors", "the-stores-schema",
                "results-every-value-as-postgresql-means-it", "runbook", "runbook-1"),
                anchorsOf("## Workspace tools: SQLite files, local files and vectors\n## The store's schema\n"
                        + "### Results: every value as PostgreSQL means it\n## Runbook\n# Runbook\n"));
    }

    private static List<Path> markdownFiles() throws IOException {
        List<Path> files = new ArrayList<>(List.of(Path.of("README.md"), Path.of("CHANGELOG.md")));
        for (String folder : List.of("docs", "k8s")) {
            try (Stream<Path> listed = Files.list(Path.of(folder))) {
                listed.filter(f -> f.toString().endsWith(".md")).sorted().forEach(files::add);
            }
        }
        return files;
    }

    private static List<String> links(Path file) throws IOException {
        List<String> targets = new ArrayList<>();
        PARSER.parse(Files.readString(file)).accept(new AbstractVisitor() {
            @Override
            public void visit(Link link) {
                targets.add(link.getDestination());
                visitChildren(link);
            }

            @Override
            public void visit(Image image) {
                targets.add(image.getDestination());
            }
        });
        return targets.stream().filter(t -> !t.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")).toList();
    }

    /** Why a relative link does not resolve, or null when it does. */
    private static String problem(Path file, String target) throws IOException {
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        Path resolved = path.isEmpty() ? file : file.resolveSibling(path).normalize();
        if (!Files.exists(resolved)) {
            return "no such file " + resolved;
        }
        if (hash < 0 || !resolved.toString().endsWith(".md")) {
            return null;
        }
        Set<String> anchors = anchorsOf(Files.readString(resolved));
        String anchor = target.substring(hash + 1);
        return anchors.contains(anchor) ? null : "no heading with anchor #" + anchor + " in " + resolved;
    }

    /**
     * The anchors GitHub gives a document's headings: the heading's text in lower case, without
     * punctuation, spaces as hyphens; a repeated one gets {@code -1}, {@code -2}, ….
     */
    static Set<String> anchorsOf(String markdown) {
        Set<String> anchors = new TreeSet<>();
        Map<String, Integer> seen = new HashMap<>();
        PARSER.parse(markdown).accept(new AbstractVisitor() {
            @Override
            public void visit(Heading heading) {
                StringBuilder text = new StringBuilder();
                heading.accept(new AbstractVisitor() {
                    @Override
                    public void visit(Text node) {
                        text.append(node.getLiteral());
                    }

                    @Override
                    public void visit(Code node) {
                        text.append(node.getLiteral());
                    }
                });
                String slug = text.toString().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\s_-]", "")
                        .trim().replace(' ', '-');
                int count = seen.merge(slug, 1, Integer::sum);
                anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
            }
        });
        return anchors;
    }

}
