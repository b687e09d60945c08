package io.sqlagent.sql.engine;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.tuples.Tuple2;

/**
 * Two statements sent to a connection together (the client pipelines them): both answers are waited for,
 * failed or not, before anything else goes to the connection.
 */
public final class Pipelined {

    private Pipelined() {
    }

    /** What a {@code Uni} ended with: its item, or its failure. */
    private record Outcome<T>(T item, Throwable failure) {
    }

    private static <T> Uni<Outcome<T>> outcome(Uni<T> uni) {
        return uni.onItemOrFailure().transform(Outcome::new);
    }

    /**
     * Both items, once both {@code Uni}s ended, failed or not (they were sent to the connection together,
     * in this order, and nothing else may follow before both answered); the first one's failure when
     * both failed.
     */
    public static <A, B> Uni<Tuple2<A, B>> bothAnswered(Uni<A> first, Uni<B> second) {
        return Uni.combine().all().unis(outcome(first), outcome(second)).asTuple().flatMap(both -> {
            Throwable failure = both.getItem1().failure() != null ? both.getItem1().failure() : both.getItem2().failure();
            return failure != null
                    ? Uni.createFrom().<Tuple2<A, B>> failure(failure)
                    : Uni.createFrom().item(Tuple2.of(both.getItem1().item(), both.getItem2().item()));
        });
    }
}
