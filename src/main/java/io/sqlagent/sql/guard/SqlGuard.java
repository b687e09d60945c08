package io.sqlagent.sql.guard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.sqlagent.MessageText;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableStatement;
import net.sf.jsqlparser.statement.select.Values;

/**
 * The first safety layer of {@code run_sql}: decides whether the model's SQL is a single read-only
 * statement of an allowed kind, and says why not when it is not. PostgreSQL's own token rules cut
 * the text (strings, quoted names, comments, statements); JSqlParser then parses it, and every node
 * of the result is checked. Immutable and safe to share between threads; {@link #check(String)}
 * never throws.
 */
public final class SqlGuard {

    /** Longest SQL accepted by default, in characters. */
    public static final int DEFAULT_MAX_LENGTH = 100_000;

    /** How long parsing may take by default before the SQL is refused. */
    public static final Duration DEFAULT_PARSE_TIMEOUT = Duration.ofSeconds(2);

    // Words that start a query; anything else is refused by its first word before parsing.
    private static final Set<String> QUERY_STARTS = Set.of("select", "with", "values", "table");
    // Words a relation's name follows in a query: what the tokens of an unparseable statement are searched for.
    private static final Set<String> RELATION_KEYWORDS = Set.of("from", "join", "table", "only");
    private static final Map<String, String> STATEMENT_NAMES = Map.of("start", "START TRANSACTION",
            "refresh", "REFRESH MATERIALIZED VIEW");

    private final Set<StatementKind> allowed;
    private final int maxLength;
    private final DeniedFunctions denied;
    private final Duration parseTimeout;
    /**
     * Verdicts that allowed a statement, by its exact text (and whether it binds parameters). It
     * belongs to this guard, whose policy never changes, so a verdict is only ever reused by the
     * policy that produced it; refusals are not kept, so a refusal that depends on the moment (the
     * parse budget, a busy parser) is never repeated. Bounded by the characters it holds.
     */
    private final Cache<VerdictKey, SqlVerdict> allowedVerdicts = Caffeine.newBuilder()
            .maximumWeight(VERDICT_CACHE_CHARS)
            .weigher((VerdictKey key, SqlVerdict verdict) -> key.sql().length() + 64)
            .build();

    /** About how many characters of SQL the verdict cache holds: a few thousand typical statements. */
    private static final long VERDICT_CACHE_CHARS = 4_000_000;

    private record VerdictKey(String sql, boolean parameters) {
    }

    /** A guard for the given kinds, with the default length limit, function list and time limit. */
    public SqlGuard(Set<StatementKind> allowed) {
        this(allowed, DEFAULT_MAX_LENGTH);
    }

    /** A guard that also refuses SQL longer than {@code maxLength} characters. */
    public SqlGuard(Set<StatementKind> allowed, int maxLength) {
        this(allowed, maxLength, Set.of(), DEFAULT_PARSE_TIMEOUT);
    }

    /**
     * A guard with every setting: {@code extraDeniedFunctions} are refused besides the built-in
     * {@link DeniedFunctions} (case-insensitive; a trailing {@code *} makes a prefix), and parsing
     * that takes longer than {@code parseTimeout} is refused.
     */
    public SqlGuard(Set<StatementKind> allowed, int maxLength, Collection<String> extraDeniedFunctions,
            Duration parseTimeout) {
        if (allowed == null || allowed.isEmpty()) {
            throw new IllegalArgumentException("At least one statement kind must be allowed");
        }
        if (maxLength <= 0) {
            throw new IllegalArgumentException("maxLength must be positive, was " + maxLength);
        }
        if (parseTimeout == null || parseTimeout.isNegative() || parseTimeout.isZero()) {
            throw new IllegalArgumentException("parseTimeout must be positive, was " + parseTimeout);
        }
        this.allowed = Set.copyOf(EnumSet.copyOf(allowed));
        this.maxLength = maxLength;
        this.denied = DeniedFunctions.withExtra(extraDeniedFunctions);
        this.parseTimeout = parseTimeout;
    }

    /**
     * This guard's policy (statement kinds, length limit, functions) with another parse budget: for SQL
     * the operator wrote into the service's own files, checked once as they load, where the default
     * budget is about callers' SQL. At start the parser's classes are cold and the CPU is shared with
     * everything else starting: at load average 27 on 2 cores, two of the demo's declared tools took
     * over 2 s to check and the service refused to start.
     */
    public SqlGuard withParseTimeout(Duration timeout) {
        return new SqlGuard(this, timeout);
    }

    private SqlGuard(SqlGuard policy, Duration parseTimeout) {
        if (parseTimeout == null || parseTimeout.isNegative() || parseTimeout.isZero()) {
            throw new IllegalArgumentException("parseTimeout must be positive, was " + parseTimeout);
        }
        this.allowed = policy.allowed;
        this.maxLength = policy.maxLength;
        this.denied = policy.denied;
        this.parseTimeout = parseTimeout;
    }

    /**
     * {@link #check} on a worker thread: parsing usually takes well under a millisecond but may take
     * up to the parse budget, and must never hold an event-loop thread.
     */
    public Uni<SqlVerdict> checkOffEventLoop(String sql) {
        SqlVerdict known = sql == null ? null : allowedVerdicts.getIfPresent(new VerdictKey(sql, false));
        if (known != null) {
            // Decided before by this guard: no parsing, so no need to leave the caller's thread.
            return Uni.createFrom().item(known);
        }
        return Uni.createFrom().item(() -> check(sql)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    /**
     * Where the explained statement starts in {@code sql} (a character offset), when {@code sql} is
     * an {@code EXPLAIN} the guard accepts the header of; empty for any other statement.
     */
    public static OptionalInt explainedStatementStart(String sql) {
        try {
            LexedSql lexed = LexedSql.of(sql);
            if (!ExplainHeader.isExplain(lexed)) {
                return OptionalInt.empty();
            }
            return OptionalInt.of(lexed.code().get(ExplainHeader.statementStart(lexed)).start());
        } catch (Refusal refusal) {
            return OptionalInt.empty();
        }
    }

    /**
     * The statement without the semicolons and comments after its last token, so that it can be
     * placed inside a subquery; empty when the text cannot be lexed, does not start as a query does
     * ({@code SELECT}, {@code WITH}, {@code VALUES}, {@code TABLE}, {@code (}) or holds more than one
     * statement, in which case it must not be wrapped.
     */
    private static final Set<String> SUBQUERY_STARTS = Set.of("select", "with", "values", "table", "(");

    public static Optional<String> statementBody(String sql) {
        try {
            LexedSql lexed = LexedSql.of(sql);
            List<PgToken> code = lexed.code();
            int last = code.size() - 1;
            while (last >= 0 && lexed.isSemicolon(code.get(last))) {
                last--;
            }
            if (last < 0 || !SUBQUERY_STARTS.contains(code.get(0).text(sql).toLowerCase(Locale.ROOT))) {
                // Not a query (an EXPLAIN, a write a declared tool runs, anything PostgreSQL will refuse): never wrapped.
                return Optional.empty();
            }
            for (int i = 0; i < last; i++) {
                if (lexed.isSemicolon(code.get(i))) {
                    // Several statements: left to PostgreSQL to refuse as they are.
                    return Optional.empty();
                }
            }
            return last < 0 ? Optional.empty() : Optional.of(sql.substring(0, code.get(last).end()));
        } catch (Refusal refusal) {
            return Optional.empty();
        }
    }

    /** Whether {@code sql} is one statement as PostgreSQL cuts it (false when it cannot be lexed). */
    public static boolean isSingleStatement(String sql) {
        try {
            return LexedSql.of(sql).statementCount() == 1;
        } catch (Refusal refusal) {
            return false;
        }
    }

    /** A guard allowing SELECT, VALUES and EXPLAIN with the default settings. */
    public static SqlGuard defaults() {
        return new SqlGuard(EnumSet.allOf(StatementKind.class));
    }

    /**
     * Decides whether {@code sql}, with every value written in, may run: the SQL a model or a person
     * sends, which is run without parameters, so a placeholder such as {@code $1} is refused with a
     * reason instead of failing in the driver. Never throws: anything it cannot check is refused.
     */
    public SqlVerdict check(String sql) {
        return check(sql, false);
    }

    /**
     * {@link #check(String)} for a statement whose positional parameters ({@code $1}, ...) its caller
     * binds, such as a declared tool's.
     */
    public SqlVerdict checkWithParameters(String sql) {
        return check(sql, true);
    }

    private SqlVerdict check(String sql, boolean parameters) {
        if (sql == null) {
            return SqlVerdict.refuse("No SQL statement was given");
        }
        VerdictKey key = new VerdictKey(sql, parameters);
        SqlVerdict known = allowedVerdicts.getIfPresent(key);
        if (known != null) {
            return known;
        }
        SqlVerdict verdict = decideOrRefuse(sql, parameters);
        if (verdict.allowed()) {
            allowedVerdicts.put(key, verdict);
        }
        return verdict;
    }

    private SqlVerdict decideOrRefuse(String sql, boolean parameters) {
        try {
            return decide(sql, parameters);
        } catch (Refusal refusal) {
            return SqlVerdict.refuse(refusal.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            return SqlVerdict.refuse("The SQL could not be checked (" + e.getClass().getSimpleName()
                    + "); write it more simply");
        }
    }

    private SqlVerdict decide(String sql, boolean parameters) throws Refusal {
        if (sql == null || sql.isBlank()) {
            throw new Refusal("No SQL statement was given");
        }
        if (sql.length() > maxLength) {
            throw new Refusal("The SQL is too long (" + sql.length() + " characters; at most " + maxLength
                    + " are allowed)");
        }
        LexedSql lexed = LexedSql.of(sql);
        int statements = lexed.statementCount();
        if (statements == 0) {
            throw new Refusal("No SQL statement was given");
        }
        if (statements > 1) {
            throw new Refusal("Only one statement is allowed; found " + statements);
        }
        boolean explain = ExplainHeader.isExplain(lexed);
        int first = explain ? ExplainHeader.statementStart(lexed) : 0;
        checkFirstWord(lexed, lexed.code().get(first), explain);
        if (!parameters) {
            Optional<PgToken> parameter = lexed.firstParameter(first);
            if (parameter.isPresent()) {
                throw new Refusal(parameter.get().text(sql) + " is a parameter placeholder (at "
                        + MessageText.lineAndColumn(sql, parameter.get().start())
                        + "): write literal values; parameters are not supported here");
            }
        }

        Statement statement;
        try {
            String text = lexed.forParser(lexed.code().get(first).start());
            statement = JsqlParsing.parse(text, lexed.code(), parseTimeout);
        } catch (Refusal unparseable) {
            // A denied call is the more useful reason, and the one that matters; the relations the tokens name go
            // with the refusal, so that a table policy can name the one it refuses.
            Optional<Refusal> call = deniedCall(lexed, first);
            if (call.isPresent()) {
                throw call.get();
            }
            return SqlVerdict.refuse(unparseable.getMessage(), StatementKind.SELECT,
                    lexed.relationsAfter(first, RELATION_KEYWORDS), Set.of());
        }
        StatementKind queryKind = queryKind(statement, explain);
        StatementKind kind = explain ? StatementKind.EXPLAIN : queryKind;
        QueryInspector.Inspection parsed = QueryInspector.inspect(statement, denied);
        // JSqlParser misreads TABLE x inside a query; PostgreSQL's tokens name what it reads.
        Set<String> tables = new java.util.TreeSet<>(parsed.tables());
        tables.addAll(lexed.relationsAfter(first, Set.of("table")));
        QueryInspector.Inspection inspection = new QueryInspector.Inspection(tables, parsed.functions(), parsed.problem());
        Optional<String> problem = inspection.problem()
                .or(() -> deniedCall(lexed, first).map(Refusal::getMessage))
                .or(() -> ServerSecrets.closedTable(inspection.tables()))
                .or(() -> ServerSecrets.closedName(lexed, first))
                .or(() -> ServerSecrets.reservedSetting(lexed, first));
        if (!allowed.contains(kind)) {
            return SqlVerdict.refuse(notAllowed(kind.name()), kind, inspection.tables(), inspection.functions());
        }
        if (problem.isPresent()) {
            return SqlVerdict.refuse(problem.get(), kind, inspection.tables(), inspection.functions());
        }
        return SqlVerdict.allow(kind, inspection.tables(), inspection.functions());
    }

    /**
     * A denied function called anywhere in the text, found from PostgreSQL's tokens alone: a second
     * net under the syntax tree, for parts of the SQL JSqlParser could not parse or keeps in a form
     * the inspection does not reach. It may also refuse a CTE or alias that carries a denied name
     * and a column list, which is rare and harmless.
     */
    private Optional<Refusal> deniedCall(LexedSql lexed, int first) {
        for (String name : lexed.namesBeforeParenthesis(first)) {
            String lower = name.toLowerCase(Locale.ROOT);
            Optional<String> reason = denied.reasonFor(lower);
            if (reason.isPresent()) {
                return Optional.of(new Refusal("Function " + lower + " is not allowed: " + reason.get()));
            }
        }
        return Optional.empty();
    }

    /** Refuses by the first word what cannot be a query, with the statement's own name, before parsing it. */
    private void checkFirstWord(LexedSql lexed, PgToken token, boolean explained) throws Refusal {
        String text = token.text(lexed.sql());
        if (token.kind() == PgToken.Kind.PUNCTUATION && text.equals("(")) {
            return;
        }
        String word = token.kind() == PgToken.Kind.WORD ? text.toLowerCase(Locale.ROOT) : null;
        if (word != null && (QUERY_STARTS.contains(word) || (!explained && word.equals("explain")))) {
            return;
        }
        if (word == null) {
            String shown = MessageText.shorten(text, 30);
            throw Refusal.unparseable("a statement cannot start with " + shown + " (at "
                    + MessageText.lineAndColumn(lexed.sql(), token.start()) + ")");
        }
        String name = STATEMENT_NAMES.getOrDefault(word, word.toUpperCase(Locale.ROOT));
        throw new Refusal(explained ? notExplainable(name) : notAllowed(name));
    }

    /** SELECT or VALUES for a query JSqlParser parsed; anything else is refused with its name. */
    private StatementKind queryKind(Statement statement, boolean explained) throws Refusal {
        Statement query = statement;
        while (query instanceof ParenthesedSelect parenthesed && parenthesed.getSelect() != null) {
            query = parenthesed.getSelect();
        }
        if (query instanceof PlainSelect || query instanceof SetOperationList || query instanceof TableStatement) {
            return StatementKind.SELECT;
        }
        if (query instanceof Values) {
            return StatementKind.VALUES;
        }
        String name = Identifiers.statementName(query);
        throw new Refusal(explained ? notExplainable(name) : notAllowed(name));
    }

    private String notAllowed(String name) {
        List<String> names = new ArrayList<>();
        for (StatementKind kind : StatementKind.values()) {
            if (allowed.contains(kind)) {
                names.add(kind.name());
            }
        }
        String list = names.size() == 1 ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
        return name + " statements are not allowed; only " + list + (names.size() == 1 ? " is" : " are");
    }

    private static String notExplainable(String name) {
        return "Only SELECT and VALUES statements can be explained; found " + name;
    }
}
