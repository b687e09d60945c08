package io.sqlagent.builtin;

import java.util.Set;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.sql.SourceChoice;
import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolDescriptorCustomizer;

/**
 * The {@code source} argument of the SQL tools as this deployment offers it: its schema's {@code enum} holds the
 * sources the tools may name ({@link SourceChoice}), and its description says each one's engine and which is the
 * default, so the model (and an MCP client) sees which databases exist before it calls.
 */
@Singleton
public class SourceArgument implements ToolDescriptorCustomizer {

    /** The tools with a {@code source} argument. */
    static final Set<String> TOOLS = Set.of("run_sql", "introspect_schema", "search_schema");

    /** What the argument means, whatever the sources; the customizer adds which there are. */
    static final String DESCRIPTION = "The database source to use; leave out for the default one.";

    private final SourceChoice choice;

    SourceArgument(SourceChoice choice) {
        this.choice = choice;
    }

    @Override
    public ToolDescriptor customize(ToolDescriptor descriptor) {
        if (!TOOLS.contains(descriptor.name()) || !(descriptor.parameters().path("properties")
                .get(SourceChoice.ARGUMENT) instanceof ObjectNode)) {
            return descriptor;
        }
        ObjectNode parameters = descriptor.parameters().deepCopy();
        ObjectNode source = (ObjectNode) parameters.path("properties").get(SourceChoice.ARGUMENT);
        ArrayNode names = source.putArray("enum");
        choice.offered().forEach(offered -> names.add(offered.name()));
        source.put("description", DESCRIPTION + " Sources: " + choice.summary() + ".");
        return new ToolDescriptor(descriptor.name(), descriptor.description(), parameters, descriptor.returns(),
                descriptor.usage(), descriptor.metadata());
    }
}
