package io.swale.operator;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code subprocess} (§8.3): runs {@code argv} in the worker's environment, gives it the attempt's
 * input document on stdin, and reads its output as JSON from stdout.
 */
public final class SubprocessOperator implements Operator {
    public static final String NAME = "subprocess";

    /**
     * @param argv the program and its arguments, not empty
     * @param timeout optional duration after which the attempt ends and the program is killed (an
     *     extension: swale's subprocess has no timeout)
     */
    record Params(@JsonProperty(required = true) List<String> argv, String timeout) {
        Params {
            if (argv == null) {
                throw new IllegalArgumentException("`argv` is required: a non-empty array of strings");
            }
            if (argv.isEmpty()) {
                throw new IllegalArgumentException("`argv` must not be empty: its first string is the program");
            }
            if (argv.stream().anyMatch(Objects::isNull)) {
                throw new IllegalArgumentException("`argv` must hold strings only, not null");
            }
            argv = List.copyOf(argv);
            if (timeout != null && !OperatorJson.isTemplated(timeout)) {
                OperatorDurations.parseSeconds(timeout);
            }
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void checkParams(JsonNode params) {
        OperatorJson.readParams(params, Params.class);
    }

    @Override
    public OperatorResult execute(AttemptContext context) {
        Params params;
        Optional<ProcessRunner.Timeout> timeout;
        try {
            params = OperatorJson.readParams(context.params(), Params.class);
            timeout = ProcessRunner.Timeout.parse(params.timeout());
        } catch (InvalidParamsException | IllegalArgumentException e) {
            return new OperatorResult.PermanentError("rendered params do not fit operator `" + NAME + "`: "
                    + e.getMessage());
        }
        byte[] stdin = OperatorJson.STRICT.writeValueAsBytes(inputDocument(context));
        return ProcessRunner.run(new ProcessRunner.Launch(params.argv().get(0), params.argv(),
                context.environment(), Optional.of(stdin), timeout), context);
    }

    /** The document a program reads on stdin; keys in the order of §8.3. */
    static ObjectNode inputDocument(AttemptContext context) {
        ObjectNode doc = OperatorJson.NODES.objectNode();
        doc.put("run_id", context.runId());
        doc.put("graph", context.graph());
        doc.put("partition", context.partition());
        doc.put("node", context.node());
        doc.put("attempt", context.attempt());
        doc.set("params", context.params());
        doc.set("inputs", context.inputs());
        return doc;
    }
}
