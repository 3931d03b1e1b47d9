package io.swale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgramStdoutTest {
    private static ProgramStdout read(String text, int limit) {
        return ProgramStdout.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), limit);
    }

    @Test
    void holdsUpToTheLimit() {
        ProgramStdout stdout = read("{\"k\": 1}", 8);
        assertThat(stdout).isInstanceOf(ProgramStdout.Held.class);
        assertThat(new String(((ProgramStdout.Held) stdout).bytes(), StandardCharsets.UTF_8)).isEqualTo("{\"k\": 1}");
    }

    @Test
    void beyondTheLimitJudgesWhatItDoesNotHold() {
        assertThat(read("{\"k\": 12}", 8)).isEqualTo(new ProgramStdout.Unheld(9, new JsonSyntaxCheck.Verdict.Json()));
        assertThat(read("  \n \t\n  \n", 4)).isEqualTo(new ProgramStdout.Unheld(9, new JsonSyntaxCheck.Verdict.Empty()));
        // the fault lies past what was held, and is found all the same
        assertThat(read("[1, 2, 3, 4,]", 4)).isEqualTo(new ProgramStdout.Unheld(13,
                new JsonSyntaxCheck.Verdict.NotJson("a value was expected at byte 12 (`]`)")));
    }
}
