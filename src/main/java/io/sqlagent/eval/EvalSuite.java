package io.sqlagent.eval;

import java.util.List;
import java.util.Optional;

/**
 * A named set of cases, with the statements that prepare the data some cases need and remove it
 * afterwards.
 *
 * @param name the suite's name ({@code chinook}, or {@code uploaded} for a case list sent with the run)
 * @param description what the suite is about
 * @param fixture data some cases need, created in the source before the first case and removed after the last
 * @param cases the cases, in file order
 */
public record EvalSuite(String name, String description, Optional<Fixture> fixture, List<EvalCase> cases) {

    /** Statements run on the source as they are (not through the read-only guard): setup before, teardown after. */
    public record Fixture(List<String> setup, List<String> teardown) {
    }

    /** The cases carrying at least one of {@code tags} (every case when empty). */
    public EvalSuite withTags(List<String> tags) {
        if (tags.isEmpty()) {
            return this;
        }
        return new EvalSuite(name, description, fixture,
                cases.stream().filter(c -> c.tags().stream().anyMatch(tags::contains)).toList());
    }
}
