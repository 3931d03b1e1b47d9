package io.swale.cli;

import io.swale.graph.Partition;
import io.swale.request.RequestId;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** What start, rerun and cancel share: the request id and key checks. */
final class RequestOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    private String key;

    /** A bad id is a usage error (exit 2) before anything is sent, as the service would refuse it (spec §5.5). */
    @Option(names = "--idempotency-key", description = "request id (1 to 64 characters of [A-Za-z0-9_-]); a retry "
            + "with the same id is applied once")
    void key(String value) {
        if (!RequestId.isValid(value)) {
            throw new ParameterException(command.commandLine(), "--idempotency-key: "
                    + new RequestId.InvalidRequestIdException(value).getMessage());
        }
        this.key = value;
    }

    /**
     * The request id: the one given, else one made here, so that a request that went out unanswered can be given
     * again under the same id (the failure names it).
     */
    String key() {
        if (key == null) {
            key = RequestId.generate(System.currentTimeMillis()).value();
        }
        return key;
    }

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
