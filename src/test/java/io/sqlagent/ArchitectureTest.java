package io.sqlagent;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * The package edges of docs/architecture.md ("Package edges"), checked on the compiled main classes with ArchUnit: a
 * cycle or a forbidden dependency that comes back fails here, naming the classes that make it.
 */
class ArchitectureTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.sqlagent");
    }

    @Test
    void packagesDependOnEachOtherOneWayOnly() {
        // Sliced by top-level package: a subpackage (knowledge.rest, sql.guard, workspace.vector) belongs to its
        // capability, so a capability whose resource or helper uses what uses the capability is a cycle here too.
        slices().matching("io.sqlagent.(*)..").namingSlices("package $1")
                .should().beFreeOfCycles()
                .because("every package is used by the ones above it, never by what it uses")
                .check(main);
    }

    @Test
    void theAgentsSubpackagesDependOnEachOtherOneWayOnly() {
        slices().assignedFrom(subpackagesOf("io.sqlagent.agent"))
                .should().beFreeOfCycles()
                .because("agent is split by concern (loop, model, conversation, live, rest) around the few types they "
                        + "share at its root; a concern that uses what uses it is one concern in two places")
                .check(main);
    }

    @Test
    void theSqlSubpackagesDependOnEachOtherOneWayOnly() {
        slices().assignedFrom(subpackagesOf("io.sqlagent.sql"))
                .should().beFreeOfCycles()
                .because("sql is split by concern (source, run, policy, guard, result, engine) around its root; "
                        + "a concern that uses what uses it is one concern in two places")
                .check(main);
    }

    /**
     * One slice per direct subpackage of {@code root} (its own subpackages included) and one for the classes at
     * {@code root} itself, so a cycle through the root (loop → root → live → loop) counts too.
     */
    private static SliceAssignment subpackagesOf(String root) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String name = javaClass.getPackageName();
                if (name.equals(root)) {
                    return SliceIdentifier.of(root + " (root)");
                }
                if (!name.startsWith(root + ".")) {
                    return SliceIdentifier.ignore();
                }
                String rest = name.substring(root.length() + 1);
                int dot = rest.indexOf('.');
                return SliceIdentifier.of(root + "." + (dot < 0 ? rest : rest.substring(0, dot)));
            }

            @Override
            public String getDescription() {
                return "the subpackages of " + root + " and its root";
            }
        };
    }

    @Test
    void theToolMachineryKnowsNothingOfItsTransports() {
        noClasses().that().resideInAnyPackage("io.sqlagent.tool..", "io.sqlagent.jsonschema..")
                .should().dependOnClassesThat().resideInAnyPackage("io.sqlagent.http..", "io.sqlagent.rest..",
                        "io.sqlagent.mcp..", "io.sqlagent.agent..", "io.sqlagent.security..", "io.sqlagent.audit..",
                        "io.sqlagent.store..", "jakarta.ws.rs..", "io.vertx.ext.web..")
                .because("the tool contract, registry and executor sit below the transports (rest, mcp, agent) that "
                        + "serve them and the features (audit) that listen to them")
                .check(main);
    }

    @Test
    void knowledgeKnowsNothingOfTheToolsBuiltOnIt() {
        noClasses().that().resideInAPackage("io.sqlagent.knowledge..")
                .should().dependOnClassesThat().resideInAPackage("io.sqlagent.builtin..")
                .because("the builtin tools are thin adapters over knowledge (KnowledgeTools lives in builtin)")
                .check(main);
    }

    @Test
    void theSqlGuardNeedsNoContainerNorConfiguration() {
        noClasses().that().resideInAPackage("io.sqlagent.sql.guard..")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta..", "javax..", "org.eclipse.microprofile..",
                        "io.smallrye.config..", "io.quarkus..", "io.vertx..")
                .because("the guard is plain code that any caller, test or benchmark builds with new; "
                        + "SqlGuardProducer (in sql) makes the bean from SqlConfig")
                .check(main);
        classes().that().resideInAPackage("io.sqlagent.sql.guard..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.sqlagent.sql.guard..", "io.sqlagent", "java..",
                        "net.sf.jsqlparser..", "com.fasterxml.jackson..", "io.smallrye.mutiny..",
                        "com.github.benmanes.caffeine..")
                .because("the guard is a leaf: the parser, JSON, Mutiny, its cache of verdicts (Caffeine) and the shared "
                        + "utilities, nothing else of the service")
                .check(main);
    }

    @Test
    void enginesSitBelowTheSourcesThatUseThem() {
        noClasses().that().resideInAPackage("io.sqlagent.sql.engine..")
                .should().dependOnClassesThat().resideInAnyPackage("io.sqlagent.sql", "io.sqlagent.sql.source..",
                        "io.sqlagent.sql.run..", "io.sqlagent.sql.policy..", "io.sqlagent.tool..",
                        "io.sqlagent.knowledge..", "io.sqlagent.builtin..", "io.sqlagent.agent..", "io.sqlagent.mcp..")
                .because("an engine (docs/engines.md) is used by sql to serve a source; it knows the guard's verdict "
                        + "and Vert.x, never the sources or anything above them")
                .check(main);
    }

    @Test
    void theSharedUtilitiesDependOnNoCapability() {
        noClasses().that().resideInAPackage("io.sqlagent")
                .should().dependOnClassesThat().resideInAPackage("io.sqlagent.*..")
                .because("the shared utilities (Redaction, MessageText, ...) are used by every capability")
                .check(main);
    }

    @Test
    void onlyTheMcpAdapterKnowsMcpTypes() {
        noClasses().that().resideOutsideOfPackage("io.sqlagent.mcp..")
                .should().dependOnClassesThat().resideInAPackage("io.quarkiverse.mcp..")
                .because("mcp adapts the tool registry to quarkus-mcp-server; nothing else sees MCP")
                .check(main);
    }

    @Test
    void onlyTheAgentAndTheEmbeddingsKnowLangchain4j() {
        noClasses().that(not(resideInAnyPackage("io.sqlagent.agent..", "io.sqlagent.workspace.vector..")))
                .should().dependOnClassesThat().resideInAnyPackage("dev.langchain4j..", "io.quarkiverse.langchain4j..")
                .because("agent adapts the model, workspace.vector its embedding model; tools stay model-neutral")
                .check(main);
    }

    @Test
    void theModelClientAndTheConversationsSitBelowTheLoop() {
        noClasses().that().resideInAnyPackage("io.sqlagent.agent.model..", "io.sqlagent.agent.conversation..")
                .should().dependOnClassesThat().resideInAnyPackage("io.sqlagent.agent.loop..", "io.sqlagent.agent.live..",
                        "io.sqlagent.agent.rest..")
                .because("the loop drives the model client and the conversation store; live runs and the chat "
                        + "endpoints sit above the loop, so neither the client nor the store may reach up to them")
                .check(main);
    }
}
