package io.sqlagent.knowledge;

import java.util.List;

/**
 * One knowledge file as written (JSON, snake_case keys, every section optional); the format is
 * documented in {@code docs/knowledge.md}.
 *
 * @param tables notes about tables
 * @param rules business rules
 * @param queryPatterns proven queries with the question each answers
 */
public record KnowledgeFile(List<TableNote> tables, List<Rule> rules, List<Pattern> queryPatterns) {

    public KnowledgeFile {
        tables = tables == null ? List.of() : List.copyOf(tables);
        rules = rules == null ? List.of() : List.copyOf(rules);
        queryPatterns = queryPatterns == null ? List.of() : List.copyOf(queryPatterns);
    }

    /** What a table holds and what to watch for in it. */
    public record TableNote(String name, String description, List<String> notes) {

        public TableNote {
            notes = notes == null ? List.of() : List.copyOf(notes);
        }

        /** Description and notes as one text. */
        String body() {
            StringBuilder body = new StringBuilder(description == null ? "" : description.strip());
            for (String note : notes) {
                body.append(body.isEmpty() ? "" : "\n").append("- ").append(note.strip());
            }
            return body.toString();
        }
    }

    /** A business rule: how the business defines a figure or a term. */
    public record Rule(String name, String description) {
    }

    /** A proven query and the question it answers. */
    public record Pattern(String name, String question, String sql, String summary, List<String> tablesUsed,
            String dataQualityNotes) {

        public Pattern {
            tablesUsed = tablesUsed == null ? List.of() : List.copyOf(tablesUsed);
        }
    }
}
