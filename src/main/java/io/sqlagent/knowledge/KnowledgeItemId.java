package io.sqlagent.knowledge;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The id of a saved learning ({@code learning-12}) or validated query ({@code query-7}) in the review
 * API: learnings and query patterns live in two tables with their own numbers, so the kind is part
 * of the id.
 *
 * @param kind {@link #LEARNING} or {@link #VALIDATED_QUERY}
 * @param number the row's id in its table
 */
public record KnowledgeItemId(String kind, long number) {

    public static final String LEARNING = "learning";
    public static final String VALIDATED_QUERY = "validated_query";
    private static final Pattern FORM = Pattern.compile("(learning|query)-([1-9][0-9]{0,17})");

    public static KnowledgeItemId learning(long number) {
        return new KnowledgeItemId(LEARNING, number);
    }

    public static KnowledgeItemId query(long number) {
        return new KnowledgeItemId(VALIDATED_QUERY, number);
    }

    /** The id {@code text} names, if it has the form of one. */
    public static Optional<KnowledgeItemId> parse(String text) {
        Matcher matcher = FORM.matcher(text == null ? "" : text);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        long number = Long.parseLong(matcher.group(2));
        return Optional.of(matcher.group(1).equals("learning") ? learning(number) : query(number));
    }

    /** A caller's id as it may be shown in a message: bounded. */
    static String shown(String id) {
        return id == null ? "" : id.length() > 40 ? id.substring(0, 40) + "…" : id;
    }

    @Override
    public String toString() {
        return (kind.equals(LEARNING) ? "learning-" : "query-") + number;
    }
}
