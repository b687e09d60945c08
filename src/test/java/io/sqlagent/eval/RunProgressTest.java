package io.sqlagent.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import io.smallrye.mutiny.helpers.test.AssertSubscriber;

/** A run's progress as its watchers see it: every watcher hears every event and the end. */
class RunProgressTest {

    private static RunProgress.Event event(String name, int done) {
        return new RunProgress.Event(name, JsonNodeFactory.instance.objectNode().put("done", done));
    }

    private static AssertSubscriber<RunProgress.Event> watch(RunProgress progress) {
        return progress.events().subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
    }

    @Test
    void twoWatchersOfTheSameRunBothSeeItEnd() {
        // Given a run with two clients watching it
        RunProgress progress = new RunProgress();
        progress.publish(event("started", 0));
        AssertSubscriber<RunProgress.Event> first = watch(progress);
        AssertSubscriber<RunProgress.Event> second = watch(progress);

        // When it publishes a case and its end
        progress.publish(event("case", 1));
        progress.publish(event("done", 1));
        progress.end();

        // Then both watchers have every event and are completed, and nothing threw
        for (AssertSubscriber<RunProgress.Event> watcher : List.of(first, second)) {
            watcher.awaitCompletion(Duration.ofSeconds(5));
            assertEquals(List.of("started", "case", "done"), watcher.getItems().stream().map(RunProgress.Event::name).toList());
        }
        assertTrue(progress.ended());
    }

    @Test
    void aWatcherThatLeavesMidRunDoesNotStopTheOthersHearingTheRest() {
        // Given three watchers, the first of which takes one event and leaves
        RunProgress progress = new RunProgress();
        AssertSubscriber<RunProgress.Event> leaving = progress.events().select().first(1).subscribe()
                .withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
        AssertSubscriber<RunProgress.Event> second = watch(progress);
        AssertSubscriber<RunProgress.Event> third = watch(progress);

        // When the run goes on and ends
        progress.publish(event("case", 1));
        progress.publish(event("case", 2));
        progress.end();

        // Then the others heard both cases and the end; a late watcher replays all of it and ends too
        leaving.awaitCompletion(Duration.ofSeconds(5)).assertItems(leaving.getItems().get(0));
        for (AssertSubscriber<RunProgress.Event> watcher : List.of(second, third,
                watch(progress))) {
            watcher.awaitCompletion(Duration.ofSeconds(5));
            assertEquals(2, watcher.getItems().size());
        }
    }
}
