package io.swale.cli;

import io.swale.definition.DefinitionFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code swale publish FILE}: publish a definition to the service. */
@Command(name = "publish", mixinStandardHelpOptions = true, versionProvider = SwaleCli.Version.class,
        description = "Publish a definition file to the service.")
final class PublishCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Remote remote;

    @Parameters(paramLabel = "FILE")
    Path file;

    @Override
    public Integer call() throws IOException {
        byte[] text;
        try {
            text = Files.readAllBytes(file);
        } catch (IOException e) {
            spec.commandLine().getErr().println("error: cannot read " + file + ": " + FileErrors.why(e));
            return SwaleCli.FAILED;
        }
        String type = switch (DefinitionFormat.fromFileName(file.toString())) {
            case YAML -> "application/yaml";
            case TOML -> "application/toml";
        };
        Remote.Answer a = remote.post("/api/v1/definitions", type, text);
        if (!a.ok()) {
            spec.commandLine().getErr().println("error: " + a.detail());
            if (a.body().has("problems")) {
                a.body().get("problems").forEach(p -> spec.commandLine().getErr()
                        .println("  " + p.path("kind").asString() + ": " + p.path("message").asString()));
            }
            return SwaleCli.FAILED;
        }
        spec.commandLine().getOut().println(a.body().get("graph").asString() + " " + a.body().get("hash").asString() + " "
                + (a.body().get("changed").asBoolean() ? "published" : "unchanged"));
        return SwaleCli.OK;
    }
}
