package io.swale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CliTest {
    @Test
    void onlyNoArgumentsOrOptionsStartTheServiceAndAnythingElseIsTheCommandLines() {
        assertThat(SwaleCli.startsTheService(new String[] {})).isTrue();
        assertThat(SwaleCli.startsTheService(new String[] {"--server.port=9090", "--debug"})).isTrue();
        assertThat(SwaleCli.startsTheService(new String[] {"status"})).isFalse();
        assertThat(SwaleCli.startsTheService(new String[] {"run", "x.toml"})).isFalse();
        assertThat(SwaleCli.startsTheService(new String[] {"--help"})).isFalse();
        // a mistyped command, alone or after an option, is refused by the command line, not taken for the service
        assertThat(SwaleCli.startsTheService(new String[] {"stauts"})).isFalse();
        assertThat(SwaleCli.startsTheService(new String[] {"--server.port=9090", "valdate", "x.toml"})).isFalse();
        StringWriter err = new StringWriter();
        assertThat(SwaleCli.execute(new String[] {"stauts"}, new PrintWriter(new StringWriter()), new PrintWriter(err)))
                .isEqualTo(SwaleCli.USAGE);
        assertThat(err.toString()).contains("stauts");
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

    /** A --url that is no http(s) URL is a bad argument, before any request, not a service out of reach (exit 1). */
    @Test
    void aUrlThatIsNotHttpIsAUsageError() {
        for (String url : new String[] {"localhost:8080", "ftp://h/", "http://", "http://a b"}) {
            StringWriter err = new StringWriter();
            assertThat(SwaleCli.execute(new String[] {"status", "--url", url}, new PrintWriter(new StringWriter()),
                    new PrintWriter(err))).as(url).isEqualTo(2);
            assertThat(err.toString()).as(url).contains("--url");
        }
    }

    @Test
    void aNameIsOnePathSegmentOfTheRequest() {
        assertThat(Remote.segment("orders?x")).isEqualTo("orders%3Fx");
        assertThat(Remote.segment("a b/c")).isEqualTo("a%20b%2Fc");
        assertThat(Remote.segment("orders_daily")).isEqualTo("orders_daily");
    }

    /** Checked before any request: an unreachable service would exit 1, not 2. */
    @Test
    void aBadTimeoutIsAUsageErrorBeforeAnyRequest() {
        StringWriter err = new StringWriter();
        String[] args = {"start", "g", "p", "--timeout", "soon", "--url=http://127.0.0.1:1"};
        assertThat(SwaleCli.execute(args, new PrintWriter(new StringWriter()), new PrintWriter(err))).isEqualTo(2);
        assertThat(err.toString()).contains("--timeout");
        assertThat(SwaleCli.execute(new String[] {"rerun", "g", "p", "n", "--timeout", "0m", "--url=http://127.0.0.1:1"},
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()))).isEqualTo(2);
        // was: the runs started, then `error: long overflow`, exit 1
        StringWriter tooLong = new StringWriter();
        assertThat(SwaleCli.execute(new String[] {"start", "g", "p", "--timeout", "200000d", "--url=http://127.0.0.1:1"},
                new PrintWriter(new StringWriter()), new PrintWriter(tooLong))).isEqualTo(2);
        assertThat(tooLong.toString()).contains("--timeout `200000d`");
    }

    @Test
    void theHelpOfStartAndRerunListsTheExitCodesOfWait() {
        for (String command : new String[] {"start", "rerun"}) {
            StringWriter out = new StringWriter();
            assertThat(SwaleCli.execute(new String[] {"help", command}, new PrintWriter(out), new PrintWriter(new StringWriter())))
                    .isZero();
            assertThat(out.toString()).contains("--wait").contains("--timeout=DURATION")
                    .containsPattern("(?m)^ +3 +with --wait, a run was cancelled$")
                    .containsPattern("(?m)^ +4 +--timeout passed first");
        }
        StringWriter out = new StringWriter();
        SwaleCli.execute(new String[] {"--help"}, new PrintWriter(out), new PrintWriter(new StringWriter()));
        assertThat(out.toString()).contains("Exit codes:").containsPattern("130 +interrupted");
    }

    /** Each command takes --help (and --version) as the top command does. Was: an unknown option, exit 2. */
    @Test
    void everyCommandShowsItsHelpWithHelp() {
        for (String command : new String[] {"validate", "run", "publish", "start", "rerun", "cancel", "status", "queues"}) {
            StringWriter out = new StringWriter();
            assertThat(SwaleCli.execute(new String[] {command, "--help"}, new PrintWriter(out),
                    new PrintWriter(new StringWriter()))).as(command).isZero();
            assertThat(out.toString()).as(command).contains("Usage: swale " + command);
        }
    }

    @Test
    void aBadPartitionKeyOfStatusStatesTheRule() {
        StringWriter err = new StringWriter();
        assertThat(SwaleCli.execute(new String[] {"status", "g", "2026-09-15", "--url=http://127.0.0.1:1"},
                new PrintWriter(new StringWriter()), new PrintWriter(err))).isEqualTo(SwaleCli.USAGE);
        assertThat(err.toString()).contains("invalid partition key `2026-09-15`: 1 to 16 characters of [A-Za-z0-9_]");
    }

    /**
     * A request that went out and got no answer may have been applied: the error says so and names the request id
     * that applies it at most once when given again. Was: "cannot reach", and no id to retry under.
     */
    @Test
    void aRequestLeftUnansweredNamesTheIdToRetryItUnder() throws Exception {
        try (java.net.ServerSocket server = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Thread closer = Thread.ofVirtual().start(() -> {
                try (java.net.Socket s = server.accept()) {
                    s.getInputStream().read(new byte[1024]);
                } catch (java.io.IOException e) {
                    // the client gave up first
                }
            });
            StringWriter err = new StringWriter();
            String url = "--url=http://127.0.0.1:" + server.getLocalPort();
            assertThat(SwaleCli.execute(new String[] {"cancel", "g", "p", url}, new PrintWriter(new StringWriter()),
                    new PrintWriter(err))).isEqualTo(SwaleCli.FAILED);
            assertThat(err.toString()).contains("the request may have been applied")
                    .containsPattern("--idempotency-key [0-9A-Z]{26} to apply it at most once");
            closer.join();
        }
        StringWriter refused = new StringWriter();
        assertThat(SwaleCli.execute(new String[] {"cancel", "g", "p", "--url=http://127.0.0.1:1"},
                new PrintWriter(new StringWriter()), new PrintWriter(refused))).isEqualTo(SwaleCli.FAILED);
        assertThat(refused.toString()).contains("cannot reach").doesNotContain("--idempotency-key");
    }

    /** A wait outlives a restart or an overload of the service; a refusal (wrong token, unknown run) ends it. */
    @Test
    void aWaitPollsThroughServerErrorsAndStopsAtARefusal() {
        assertThat(WaitOptions.transientStatus(500)).isTrue();
        assertThat(WaitOptions.transientStatus(503)).isTrue();
        assertThat(WaitOptions.transientStatus(429)).isTrue();
        assertThat(WaitOptions.transientStatus(408)).isTrue();
        assertThat(WaitOptions.transientStatus(401)).isFalse();
        assertThat(WaitOptions.transientStatus(404)).isFalse();
        assertThat(WaitOptions.transientStatus(400)).isFalse();
    }

    @Test
    void eachPollTakesAtMostAMinuteAndNoLongerThanTheTimeLeft() {
        assertThat(WaitOptions.requestTimeout(Optional.empty())).isEqualTo(Duration.ofSeconds(60));
        assertThat(WaitOptions.requestTimeout(Optional.of(Duration.ofHours(2))))
                .isEqualTo(Duration.ofSeconds(60));
        assertThat(WaitOptions.requestTimeout(Optional.of(Duration.ofSeconds(7))))
                .isEqualTo(Duration.ofSeconds(7));
        assertThat(WaitOptions.requestTimeout(Optional.of(Duration.ofSeconds(-3))))
                .isEqualTo(Duration.ofMillis(1));
    }

    /** Was: the servers started, and a downstream node on such a pool was retried without end. */
    @Test
    void runRefusesAPoolThatCannotBeCreatedBeforeStartingAnything(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("g.toml"), """
                [graph]
                name = "g"
                [[node]]
                name = "a"
                operator = "noop"
                [[node]]
                name = "b"
                after = ["a"]
                operator = "noop"
                pool = "io-heavy"
                """);
        StringWriter err = new StringWriter();
        assertThat(SwaleCli.execute(new String[] {"run", file.toString()}, new PrintWriter(new StringWriter()),
                new PrintWriter(err))).isEqualTo(1);
        assertThat(err.toString()).contains("node `b`: pool `io-heavy` cannot be created").contains("[a-z0-9_]+");
    }
}
