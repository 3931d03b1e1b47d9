package io.swale.cli;

import io.swale.graph.Partition;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** What start, rerun and cancel share: the request id and key checks. */
final class RequestOptions {
    @Option(names = "--idempotency-key", description = "request id; a retry with the same id is applied once")
    String key;

    /** A bad partition key is a usage error (exit 2) before anything is sent. */
    static String partition(CommandSpec spec, String key) {
        if (!Partition.isValid(key)) {
            throw new ParameterException(spec.commandLine(), "invalid partition key `" + key
                    + "`: 1 to 16 characters of [A-Za-z0-9_]");
        }
        return key;
    }

    /** Prints a refusal to stderr; true when the service refused the request. */
    static boolean refused(CommandSpec spec, Remote.Answer answer, String prefix) {
        if (answer.ok()) {
            return false;
        }
        spec.commandLine().getErr().println(prefix + answer.detail());
        return true;
    }

    static String requestId(Remote.Answer answer) {
        return answer.body().path("requestId").asString("");
    }
}
