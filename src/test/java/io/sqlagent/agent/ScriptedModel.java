package io.sqlagent.agent;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

import io.quarkus.test.common.WithTestResource;

/**
 * Gives a {@code @QuarkusTest} class the scripted OpenAI-compatible model: the application's model client (and the
 * embedding client) talk to a {@link ScriptedOpenAiServer} ({@link ScriptedModelResource}), and
 * {@link ScriptedModelExtension} forgets the script and the recorded requests before each test. A test reads the
 * server from {@link ScriptedModelExtension#server()}:
 *
 * <pre>
 * &#64;QuarkusTest
 * &#64;ScriptedModel
 * class AnswersTest {
 *     final ScriptedOpenAiServer model = ScriptedModelExtension.server();
 *
 *     &#64;Test
 *     void answersInText() {
 *         model.then(text("There are ", "3503", " tracks."));
 *         // ask /api/chat, read the events, assert on them and on model.requests()
 *     }
 * }
 * </pre>
 *
 * Quarkus starts the application again for each different set of test resources, and the attributes of this
 * annotation are part of that set: the classes of one test profile use the same {@code timeout}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@WithTestResource(ScriptedModelResource.class)
@ExtendWith(ScriptedModelExtension.class)
public @interface ScriptedModel {

    /** The model client's timeout ({@code quarkus.langchain4j.openai.timeout}). */
    String timeout() default "5s";
}
