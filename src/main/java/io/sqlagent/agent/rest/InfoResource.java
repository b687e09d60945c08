package io.sqlagent.agent.rest;

import java.util.Comparator;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.model.ChatModels;
import io.sqlagent.security.AuthConfig;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.tool.Toolset;

/**
 * {@code GET /api/info}: what the chat page shows before a question: the model in use (or the
 * settings to make one), the sources, the toolsets a chat may pick, and how to sign in.
 */
@Path("/api/info")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Chat")
public class InfoResource {

    private final ChatModels models;
    private final SourceRegistry sources;
    private final ToolRegistry tools;
    private final AuthConfig auth;

    InfoResource(ChatModels models, SourceRegistry sources, ToolRegistry tools, AuthConfig auth) {
        this.models = models;
        this.sources = sources;
        this.tools = tools;
        this.auth = auth;
    }

    @GET
    @Operation(summary = "What the service offers", description = "{model: the model asked for | null, model_server?: "
            + "host[:port] of the model server (absent for a replay file), model_answered_as?: the name the server gave "
            + "itself in its last answer, once it answered, model_hint?: what to set when there is no model, sources: [name], toolsets: [{name, title, description, tools}], auth: {mode: none | "
            + "api-key | oidc | api-key,oidc, login_url?}}")
    public ObjectNode info() {
        ObjectNode info = SnakeCaseJson.MAPPER.createObjectNode();
        models.answering().ifPresentOrElse(answering -> {
            info.put("model", answering.requested());
            answering.server().ifPresent(server -> info.put("model_server", server));
            answering.server().flatMap(server -> answering.answeredAs())
                    .ifPresent(answered -> info.put("model_answered_as", answered));
        }, () -> {
            info.putNull("model");
            info.put("model_hint", ChatModels.notConfiguredHint());
        });
        ArrayNode sourceNames = info.putArray("sources");
        sources.all().stream().map(Source::name).sorted().forEach(sourceNames::add);
        ArrayNode toolsets = info.putArray("toolsets");
        tools.toolsets().values().stream().sorted(Comparator.comparing(Toolset::name)).forEach(set -> {
            ObjectNode entry = toolsets.addObject().put("name", set.name()).put("title", set.title())
                    .put("description", set.description());
            set.tools().forEach(entry.putArray("tools")::add);
        });
        ObjectNode signIn = info.putObject("auth");
        String mode = auth.apiKeys() && auth.oidcEnabled() ? "api-key,oidc"
                : auth.apiKeys() ? "api-key" : auth.oidcEnabled() ? "oidc" : "none";
        signIn.put("mode", mode);
        if (auth.oidcEnabled()) {
            signIn.put("login_url", "/login");
        }
        return info;
    }
}
