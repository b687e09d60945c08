package io.sqlagent.sql.source;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.smallrye.mutiny.Uni;

/**
 * Each authenticated principal's share of one source: how many of its statements may hold or wait for one of the
 * source's connections at once. A statement past its principal's share waits in that principal's own line, first
 * come first served, for one of the principal's statements to finish (at most the source's acquire timeout); it never
 * waits in the pool's queue, so one principal can never hold the whole pool, and another principal's statement always
 * finds a connection free or a short wait in the pool's own first-come queue. An agent turn that calls more tools at
 * once than the share allows is served in turn rather than refused. As many statements as the share may wait in a
 * principal's line; one more, or a wait past the timeout, is refused ({@link Refused}).
 * <p>
 * A map of lines under one lock rather than a semaphore per principal (or a bulkhead library): the principals are not
 * known in advance, and an entry must go away with its last statement so that the map holds only principals with a
 * statement running or waiting. The lock is held for a few field updates only; a waiter is woken outside it.
 */
public final class PrincipalShares {

    /** Why a statement was refused its principal's share. */
    public static final class Refused extends RuntimeException {

        private final boolean waited;

        Refused(boolean waited) {
            super(waited ? "the wait for the principal's share timed out" : "the principal's line is full", null, false,
                    false);
            this.waited = waited;
        }

        /** True when the statement waited its time in line; false when the line was full. */
        public boolean waited() {
            return waited;
        }
    }

    /** One principal's statements: how many hold a share, and those waiting for one, in order. */
    private static final class Line {
        int inUse;
        final ArrayDeque<CompletableFuture<Void>> waiting = new ArrayDeque<>();
    }

    private final int perPrincipal;
    private final Map<String, Line> lines = new HashMap<>();

    /** @param perPrincipal statements one principal may have on the source at once */
    PrincipalShares(int perPrincipal) {
        this.perPrincipal = perPrincipal;
    }

    /** Statements one principal may have on the source at once. */
    public int perPrincipal() {
        return perPrincipal;
    }

    /**
     * One of {@code principal}'s share: at once when it has one free, else once one of its statements finished, after
     * those of its statements that waited before. Fails with {@link Refused} when {@code wait} passes first or as many
     * of its statements as its share are already waiting; a caller that cancels while waiting leaves the line.
     */
    Uni<Void> take(String principal, Duration wait) {
        return Uni.createFrom().deferred(() -> {
            CompletableFuture<Void> turn;
            synchronized (this) {
                Line line = lines.computeIfAbsent(principal, name -> new Line());
                if (line.inUse < perPrincipal) {
                    line.inUse++;
                    return Uni.createFrom().voidItem();
                }
                if (line.waiting.size() >= perPrincipal) {
                    return Uni.createFrom().failure(new Refused(false));
                }
                turn = new CompletableFuture<>();
                line.waiting.add(turn);
            }
            return Uni.createFrom().completionStage(turn)
                    .ifNoItem().after(wait).recoverWithUni(() -> leave(principal, turn)
                            ? Uni.createFrom().failure(new Refused(true))
                            // The share came just as the wait ended: it is this statement's.
                            : Uni.createFrom().voidItem())
                    .onCancellation().invoke(() -> {
                        if (!leave(principal, turn)) {
                            release(principal);
                        }
                    });
        });
    }

    /** Takes {@code turn} out of {@code principal}'s line; false when it was given its share already. */
    private synchronized boolean leave(String principal, CompletableFuture<Void> turn) {
        Line line = lines.get(principal);
        return line != null && line.waiting.remove(turn);
    }

    /** Gives back one of {@code principal}'s share, taken by {@link #take}: to its next waiting statement, if any. */
    void release(String principal) {
        CompletableFuture<Void> next;
        synchronized (this) {
            Line line = lines.get(principal);
            if (line == null) {
                return;
            }
            next = line.waiting.poll();
            if (next == null) {
                line.inUse--;
                if (line.inUse <= 0) {
                    lines.remove(principal);
                }
                return;
            }
        }
        next.complete(null); // the share passes on as it is: in use by the next statement
    }

    /** Statements {@code principal} has on the source now, running or waiting. */
    synchronized int inUse(String principal) {
        Line line = lines.get(principal);
        return line == null ? 0 : line.inUse + line.waiting.size();
    }
}
