package io.sqlagent.agent;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The JUnit side of {@link ScriptedModel}: before each test, the scripted server forgets the turns an earlier test
 * scripted and the requests it received, so a test sees only its own. What the server embedded is kept (a test may
 * read what the application embedded when it started).
 */
public class ScriptedModelExtension implements BeforeEachCallback {

    /**
     * The scripted server of the running application. Quarkus runs a test on an instance of its own, not the one JUnit
     * extensions see, so a test reads the server from here (a field initialised with it is set in time: the instance
     * is created after the application started).
     */
    public static ScriptedOpenAiServer server() {
        ScriptedOpenAiServer server = ScriptedModelResource.server;
        if (server == null) {
            throw new IllegalStateException("No scripted model is running: annotate the test class with @ScriptedModel");
        }
        return server;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        server().reset();
    }
}
