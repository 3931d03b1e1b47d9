package io.swale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `swale validate` prints a warning per unquoted upstream output in a shell command; the file stays valid. */
class ValidateWarningsTest {
    @TempDir
    Path dir;

    @Test
    void warningsGoToStderrAndTheExitCodeStaysZero() throws Exception {
        Path file = dir.resolve("g.toml");
        Files.writeString(file, """
                [graph]
                name = "warned"
                [[node]]
                name = "a"
                produces = "x"
                operator = "shell"
                [node.params]
                command = "printf '{}'"
                [[node]]
                name = "b"
                produces = "y"
                consumes = ["x"]
                operator = "shell"
                [node.params]
                command = "echo {{ upstream.a.v }} {{ upstream.a.w | sh }}"
                """);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SwaleCli.execute(new String[] {"validate", file.toString()}, new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertThat(code).isZero();
        assertThat(out.toString().strip()).isEqualTo("warned: 2 nodes, 1 edges");
        assertThat(err.toString().strip().lines()).singleElement().asString()
                .startsWith("warning: node `b`").contains("upstream.a.v", "| sh");
    }
}
