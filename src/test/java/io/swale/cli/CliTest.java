package io.swale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class CliTest {
    @Test
    void firstArgumentNamingACommandRunsTheCommandLine() {
        assertThat(SwaleCli.isCommand(new String[] {"status"})).isTrue();
        assertThat(SwaleCli.isCommand(new String[] {"run", "x.toml"})).isTrue();
        assertThat(SwaleCli.isCommand(new String[] {})).isFalse();
        assertThat(SwaleCli.isCommand(new String[] {"--server.port=9090"})).isFalse();
    }

    @Test
    void tablesArePaddedToTheWidestCellTwoSpacesApartWithoutTrailingSpaces() {
        StringWriter s = new StringWriter();
        new Table("GRAPH", "STATE", "LATEST").row("orders_daily", "active", null).row("g", "", "p complete")
                .print(new PrintWriter(s, true));
        assertThat(s.toString()).isEqualTo("""
                GRAPH         STATE   LATEST
                orders_daily  active  -
                g             -       p complete
                """);
    }

    @Test
    void usageErrorsExit2() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(SwaleCli.execute(new String[] {"rerun", "g"}, new PrintWriter(out), new PrintWriter(err))).isEqualTo(2);
        assertThat(SwaleCli.execute(new String[] {"nosuch"}, new PrintWriter(out), new PrintWriter(err))).isEqualTo(2);
        assertThat(SwaleCli.execute(new String[] {"status", "--limit", "0"}, new PrintWriter(out), new PrintWriter(err)))
                .isEqualTo(2);
    }
}
