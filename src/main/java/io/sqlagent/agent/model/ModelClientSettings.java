package io.sqlagent.agent.model;

import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.rest.client.RestClientBuilder;
import org.eclipse.microprofile.rest.client.spi.RestClientListener;

import io.quarkiverse.langchain4j.openai.common.OpenAiRestApi;
import io.smallrye.config.SmallRyeConfig;
import io.sqlagent.agent.AgentConfig;

/**
 * Settings of the model's HTTP client that quarkus-langchain4j has no property for, applied when
 * it builds its OpenAI REST client (a MicroProfile {@link RestClientListener}, found through
 * {@code META-INF/services}):
 * <ul>
 * <li>connections are kept and reused: {@link StreamedConnections} stops the REST client's SSE
 * reader from closing a connection whose streamed answer ended (it did, so every model call opened
 * a new one, and with keep-alive the pool could hand that connection to the next call just before
 * the close landed: "Connection was closed", one call in three under 20 concurrent streams);</li>
 * <li>{@code sqlagent.agent.model-connections}: the model calls in flight at once (the REST
 * client's pool size, otherwise a fixed 50); more wait for a connection;</li>
 * <li>{@link ModelHttpFailure.Mapper}: the model server's HTTP errors keep its {@code Retry-After}
 * for {@link ModelResilience}.</li>
 * </ul>
 */
public class ModelClientSettings implements RestClientListener {

    static final String POOL_SIZE = "io.quarkus.rest.client.connection-pool-size";
    static final String KEEP_ALIVE = "io.quarkus.rest.client.keep-alive-enabled";

    @Override
    public void onNewClient(Class<?> serviceInterface, RestClientBuilder builder) {
        if (!OpenAiRestApi.class.equals(serviceInterface)) {
            return;
        }
        AgentConfig config = ConfigProvider.getConfig().unwrap(SmallRyeConfig.class).getConfigMapping(AgentConfig.class);
        builder.property(POOL_SIZE, config.modelConnections());
        builder.property(KEEP_ALIVE, true);
        builder.register(new StreamedConnections());
        builder.register(new ModelHttpFailure.Mapper());
    }
}
