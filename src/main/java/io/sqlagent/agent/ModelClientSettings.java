package io.sqlagent.agent;

import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.rest.client.RestClientBuilder;
import org.eclipse.microprofile.rest.client.spi.RestClientListener;

import io.quarkiverse.langchain4j.openai.common.OpenAiRestApi;
import io.smallrye.config.SmallRyeConfig;

/**
 * Settings of the model's HTTP client that quarkus-langchain4j has no property for, applied when
 * it builds its OpenAI REST client (a MicroProfile {@link RestClientListener}, found through
 * {@code META-INF/services}):
 * <ul>
 * <li>no keep-alive: the REST client closes a streamed response's connection when the stream
 * completes, so connections are not reused anyway, and with keep-alive the pool could hand that
 * connection to the next model call just before it was closed — that call then failed with
 * "Connection was closed" (one in three under 20 concurrent streams);</li>
 * <li>{@code sqlagent.agent.model-connections}: the model calls in flight at once (the REST
 * client's pool size, otherwise a fixed 50); more wait for a connection.</li>
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
        builder.property(KEEP_ALIVE, false);
        builder.register(new ModelHttpFailure.Mapper());
    }
}
