package io.sqlagent.sql;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Each authenticated principal's share of one source: how many of its statements may hold or wait for one of the
 * source's connections at once. One principal past its share is refused at once (a {@code busy} tool error naming
 * the setting), so it can never hold the whole pool, and another principal's statement always finds a connection
 * free or a short wait in the pool's own first-come queue. A map of counts rather than a semaphore per principal
 * (or a bulkhead library): the principals are not known in advance, and an entry must go away with its last
 * statement so that the map holds only principals with a statement running.
 */
public final class PrincipalShares {

    private final int perPrincipal;
    private final ConcurrentHashMap<String, Integer> inFlight = new ConcurrentHashMap<>();

    /** @param perPrincipal statements one principal may have on the source at once */
    PrincipalShares(int perPrincipal) {
        this.perPrincipal = perPrincipal;
    }

    /** Statements one principal may have on the source at once. */
    public int perPrincipal() {
        return perPrincipal;
    }

    /** Takes one of {@code principal}'s share; false when it already has its share in use. */
    boolean tryTake(String principal) {
        boolean[] taken = { false };
        inFlight.compute(principal, (name, count) -> {
            int now = count == null ? 0 : count;
            if (now >= perPrincipal) {
                return count;
            }
            taken[0] = true;
            return now + 1;
        });
        return taken[0];
    }

    /** Gives back one of {@code principal}'s share, taken by {@link #tryTake}. */
    void release(String principal) {
        inFlight.computeIfPresent(principal, (name, count) -> count <= 1 ? null : count - 1);
    }

    /** Statements {@code principal} has on the source now. */
    int inUse(String principal) {
        return inFlight.getOrDefault(principal, 0);
    }
}
