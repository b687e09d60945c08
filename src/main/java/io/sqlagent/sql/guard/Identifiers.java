package io.sqlagent.sql.guard;

import java.util.Locale;

/**
 * Spells names as PostgreSQL resolves them: an unquoted name is folded to lower case (ASCII
 * letters only, as PostgreSQL does), a quoted one keeps its case and loses its quotes.
 */
final class Identifiers {

    private Identifiers() {
    }

    static String fold(String name) {
        if (name == null) {
            return "";
        }
        if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
            return name.substring(1, name.length() - 1).replace("\"\"", "\"");
        }
        StringBuilder folded = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            folded.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
        }
        return folded.toString();
    }

    /**
     * The display name of a statement node for a refusal: {@code DELETE} for a
     * {@code Delete} or {@code ParenthesedDelete}, the class name in capitals otherwise.
     */
    static String statementName(Object statement) {
        String name = statement.getClass().getSimpleName();
        if (name.startsWith("Parenthesed")) {
            name = name.substring("Parenthesed".length());
        }
        if (name.endsWith("Statement") && name.length() > "Statement".length()) {
            name = name.substring(0, name.length() - "Statement".length());
        }
        return name.toUpperCase(Locale.ROOT);
    }
}
