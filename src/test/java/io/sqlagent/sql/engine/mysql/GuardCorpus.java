package io.sqlagent.sql.engine.mysql;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The cases of {@code src/test/resources/engine/mysql-guard-corpus.tsv}. */
final class GuardCorpus {

    /** One line: whether the SQL is allowed, what it shows (allowed) or what the refusal must say, the SQL. */
    record Case(boolean allowed, String expectation, String sql) {

        @Override
        public String toString() {
            return (allowed ? "allows " : "refuses ") + sql.replace("\n", "⏎");
        }
    }

    private GuardCorpus() {
    }

    static List<Case> cases() {
        try (InputStream in = GuardCorpus.class.getResourceAsStream("/engine/mysql-guard-corpus.tsv")) {
            List<Case> cases = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] fields = line.split("\t", 3);
                if (fields.length != 3 || !(fields[0].equals("allow") || fields[0].equals("refuse"))) {
                    throw new IllegalStateException("Malformed corpus line: " + line);
                }
                cases.add(new Case(fields[0].equals("allow"), fields[1],
                        fields[2].replace("\\n", "\n").replace("\\t", "\t")));
            }
            return cases;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<Case> allowed() {
        return cases().stream().filter(Case::allowed).toList();
    }

    static List<Case> refused() {
        return cases().stream().filter(c -> !c.allowed()).toList();
    }
}
