package io.sqlagent.sql.guard;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.sqlagent.MessageText;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;

/**
 * Runs JSqlParser on the guard's copy of the SQL, bounded in time, and proves that it cut the text
 * into tokens compatibly with PostgreSQL: a parser token may split a PostgreSQL token, or join
 * several words (or several operator characters) into one, but never swallow a string, a quoted
 * name, a bracket or a comma that PostgreSQL would see, since the checks would then miss what is
 * inside.
 */
final class JsqlParsing {

    // Parsing is CPU work, so a thread per core; the queue absorbs bursts and its wait counts against the time limit.
    private static final int THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());
    private static final ExecutorService PARSERS = parserPool();

    // PostgreSQL tokens a parser token may lie strictly inside of.
    private static final Set<PgToken.Kind> SPLITTABLE = EnumSet.of(PgToken.Kind.STRING, PgToken.Kind.ESCAPE_STRING,
            PgToken.Kind.UNICODE_STRING, PgToken.Kind.DOLLAR_STRING, PgToken.Kind.NUMBER, PgToken.Kind.OPERATOR,
            PgToken.Kind.PARAMETER);

    private JsqlParsing() {
    }

    private static ExecutorService parserPool() {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, "sql-guard-parser-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(1_000), factory);
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** What one parser run produced: the statements, or the exception it failed with. */
    private record Attempt(Token head, Statements statements, JSQLParserException failure) {

        boolean timedOut() {
            return failure != null && causedBy(failure, TimeoutException.class);
        }
    }

    /**
     * The single statement in {@code text} (the guard's copy, see {@link LexedSql#forParser(int)}).
     *
     * @param pgTokens PostgreSQL's tokens of the same text, in order, comments left out
     * @throws Refusal if it cannot be parsed in time, or the parser read it differently from PostgreSQL
     */
    static Statement parse(String text, List<PgToken> pgTokens, Duration timeout) throws Refusal {
        long deadline = System.nanoTime() + timeout.toNanos();
        // JSqlParser's own order: the fast grammar first, the complete one (slow on deep nesting) if that fails.
        Attempt attempt = attempt(text, false, deadline);
        if (attempt.failure() != null && !attempt.timedOut() && millisLeft(deadline) > 0) {
            Attempt complex = attempt(text, true, deadline);
            attempt = complex.timedOut() ? attempt : complex;
        }
        if (attempt.failure() != null) {
            throw failure(attempt.failure(), timeout);
        }
        List<Statement> statements = attempt.statements().getStatements();
        if (statements.size() != 1) {
            throw new Refusal("Only one statement is allowed; found " + statements.size());
        }
        crossCheck(text, attempt.head(), pgTokens);
        return statements.get(0);
    }

    private static Attempt attempt(String text, boolean complex, long deadline) throws Refusal {
        CCJSqlParser parser = CCJSqlParserUtil.newParser(text)
                .withSquareBracketQuotation(false)
                .withBackslashEscapeCharacter(false)
                .withUnsupportedStatements(false)
                .withAllowComplexParsing(complex)
                .withTimeOut(Math.max(1, millisLeft(deadline)));
        Token head = parser.token;
        try {
            return new Attempt(head, CCJSqlParserUtil.parseStatements(parser, PARSERS), null);
        } catch (JSQLParserException e) {
            // Stops the parser thread too when the wait ended for another reason than the time limit.
            parser.interrupted = true;
            if (causedBy(e, InterruptedException.class)) {
                Thread.currentThread().interrupt();
                throw new Refusal("The SQL check was interrupted; try again");
            }
            return new Attempt(head, null, e);
        } catch (RejectedExecutionException e) {
            throw new Refusal("The SQL guard is busy; try again in a moment");
        }
    }

    private static long millisLeft(long deadline) {
        return TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
    }

    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }

    private static Refusal failure(JSQLParserException failure, Duration timeout) {
        if (causedBy(failure, TimeoutException.class)) {
            return new Refusal("The SQL took too long to check (over " + timeout.toMillis()
                    + " ms); simplify it, for example with less nesting");
        }
        if (causedBy(failure, StackOverflowError.class)) {
            return Refusal.unparseable("it is nested too deeply");
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ParseException parse && parse.currentToken != null
                    && parse.currentToken.next != null) {
                Token unexpected = parse.currentToken.next;
                return Refusal.unparseable(unexpected.kind == CCJSqlParserConstants.EOF
                        ? "unexpected end of input"
                        : "unexpected \"" + unexpected.image + "\" at line " + unexpected.beginLine
                                + ", column " + unexpected.beginColumn);
            }
            if (cause.getCause() == null) {
                String message = cause.getMessage() == null ? cause.getClass().getSimpleName()
                        : cause.getMessage().strip();
                int lineEnd = message.indexOf('\n');
                return Refusal.unparseable(lineEnd < 0 ? message : message.substring(0, lineEnd).strip());
            }
        }
        return Refusal.unparseable(String.valueOf(failure.getMessage()));
    }

    private static void crossCheck(String text, Token head, List<PgToken> pgTokens) throws Refusal {
        int pos = 0;
        int first = 0;
        for (Token token = head.next; token != null && token.kind != CCJSqlParserConstants.EOF; token = token.next) {
            pos = skipBlanks(text, pos);
            String image = token.image;
            // Not where it should be: the parser skipped text (a comment in its dialect) or rewrote it.
            if (image == null || image.isEmpty() || !text.startsWith(image, pos)) {
                throw misread(text, pos);
            }
            int end = pos + image.length();
            while (first < pgTokens.size() && pgTokens.get(first).end() <= pos) {
                first++;
            }
            int last = first;
            while (last < pgTokens.size() && pgTokens.get(last).start() < end) {
                last++;
            }
            if (!compatible(pgTokens.subList(first, last), pos, end)) {
                throw misread(text, pos);
            }
            pos = end;
        }
        // Text after the last token that the parser took for a comment in its dialect.
        pos = skipBlanks(text, pos);
        if (pos < text.length()) {
            throw misread(text, pos);
        }
    }

    private static int skipBlanks(String text, int pos) {
        while (pos < text.length()
                && (text.charAt(pos) == ' ' || text.charAt(pos) == '\n' || text.charAt(pos) == '\r')) {
            pos++;
        }
        return pos;
    }

    /**
     * Whether one parser token spanning {@code [start, end)} fits the PostgreSQL tokens it overlaps.
     * It may lie inside a literal or an operator (seeing more structure there only makes the checks
     * stricter), cover exactly one token, or join whole words (DOUBLE PRECISION) or whole operator
     * characters ({@code #>>}). Names are never split, and nothing is joined across a string, a
     * quoted name, a bracket or a comma.
     */
    private static boolean compatible(List<PgToken> covered, int start, int end) {
        if (covered.isEmpty()) {
            return false;
        }
        if (covered.size() == 1) {
            PgToken only = covered.get(0);
            boolean whole = start <= only.start() && only.end() <= end;
            return whole || SPLITTABLE.contains(only.kind());
        }
        PgToken.Kind kind = covered.get(0).kind();
        if (kind != PgToken.Kind.WORD && kind != PgToken.Kind.OPERATOR) {
            return false;
        }
        for (PgToken token : covered) {
            if (token.kind() != kind || token.start() < start || token.end() > end) {
                return false;
            }
        }
        return true;
    }

    private static Refusal misread(String text, int pos) {
        return Refusal.unparseable("the text at " + MessageText.lineAndColumn(text, pos)
                + " reads differently in PostgreSQL and in the checker; write it in plain PostgreSQL syntax");
    }
}
