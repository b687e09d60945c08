package io.sqlagent.sql.engine.mysql;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;

import io.sqlagent.MessageText;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;

/**
 * Runs JSqlParser on the guard's copy of a MySQL statement, bounded in time, and proves that the
 * parser cut the text compatibly with MySQL: a parser token may lie inside a literal, a variable or
 * an operator, cover exactly one MySQL token, or join whole words or operator characters, but never
 * swallow a string, a backtick name, a bracket or a comma MySQL would see.
 */
final class MySqlParsing {

    /** Why the text could not be parsed as the guard must read it. */
    static final class Unparseable extends Exception {

        Unparseable(String message) {
            super(message, null, false, false);
        }
    }

    private static final ExecutorService PARSERS = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "mysql-guard-parser");
        thread.setDaemon(true);
        return thread;
    });

    private static final Set<MySqlToken.Kind> SPLITTABLE = EnumSet.of(MySqlToken.Kind.STRING, MySqlToken.Kind.NUMBER,
            MySqlToken.Kind.OPERATOR, MySqlToken.Kind.USER_VARIABLE, MySqlToken.Kind.SYSTEM_VARIABLE);

    private MySqlParsing() {
    }

    static Statement parse(String text, List<MySqlToken> code, long timeoutMillis) throws Unparseable {
        CCJSqlParser parser = CCJSqlParserUtil.newParser(text)
                .withSquareBracketQuotation(false)
                .withBackslashEscapeCharacter(false)
                .withUnsupportedStatements(false)
                .withAllowComplexParsing(true)
                .withTimeOut(timeoutMillis);
        Token head = parser.token;
        Statements statements;
        try {
            statements = CCJSqlParserUtil.parseStatements(parser, PARSERS);
        } catch (JSQLParserException e) {
            parser.interrupted = true;
            throw new Unparseable(reason(e, timeoutMillis));
        }
        if (statements.getStatements().size() != 1) {
            throw new Unparseable("found " + statements.getStatements().size() + " statements");
        }
        crossCheck(text, head, code);
        return statements.getStatements().get(0);
    }

    private static String reason(JSQLParserException failure, long timeoutMillis) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException) {
                return "it took too long to check (over " + timeoutMillis + " ms); simplify it";
            }
            if (cause instanceof net.sf.jsqlparser.parser.ParseException parse && parse.currentToken != null
                    && parse.currentToken.next != null) {
                Token unexpected = parse.currentToken.next;
                return unexpected.kind == CCJSqlParserConstants.EOF ? "unexpected end of input"
                        : "unexpected \"" + unexpected.image + "\" at line " + unexpected.beginLine + ", column "
                                + unexpected.beginColumn;
            }
        }
        String message = String.valueOf(failure.getMessage()).strip();
        int lineEnd = message.indexOf('\n');
        return lineEnd < 0 ? message : message.substring(0, lineEnd);
    }

    private static void crossCheck(String text, Token head, List<MySqlToken> code) throws Unparseable {
        int pos = 0;
        int first = 0;
        for (Token token = head.next; token != null && token.kind != CCJSqlParserConstants.EOF; token = token.next) {
            while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\n')) {
                pos++;
            }
            String image = token.image;
            if (image == null || image.isEmpty() || !text.startsWith(image, pos)) {
                throw misread(text, pos);
            }
            int end = pos + image.length();
            while (first < code.size() && code.get(first).end() <= pos) {
                first++;
            }
            int last = first;
            while (last < code.size() && code.get(last).start() < end) {
                last++;
            }
            if (!compatible(code.subList(first, last), pos, end)) {
                throw misread(text, pos);
            }
            pos = end;
        }
        while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\n')) {
            pos++;
        }
        if (pos < text.length()) {
            throw misread(text, pos);
        }
    }

    private static boolean compatible(List<MySqlToken> covered, int start, int end) {
        if (covered.isEmpty()) {
            return false;
        }
        if (covered.size() == 1) {
            MySqlToken only = covered.get(0);
            return (start <= only.start() && only.end() <= end) || SPLITTABLE.contains(only.kind());
        }
        MySqlToken.Kind kind = covered.get(0).kind();
        if (kind != MySqlToken.Kind.WORD && kind != MySqlToken.Kind.OPERATOR) {
            return false;
        }
        for (MySqlToken token : covered) {
            if (token.kind() != kind || token.start() < start || token.end() > end) {
                return false;
            }
        }
        return true;
    }

    private static Unparseable misread(String text, int pos) {
        return new Unparseable("the text at " + MessageText.lineAndColumn(text, pos)
                + " reads differently in MySQL and in the checker; write it more plainly");
    }
}
