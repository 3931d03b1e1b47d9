package io.swale.operator;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * {@code shell} (§8.4): runs {@code sh -c <command>} with stdin closed, in the worker's environment
 * plus the {@code SWALE_*} variables, then the {@code env} params.
 */
public final class ShellOperator implements Operator {
    public static final String NAME = "shell";
    static final String PROGRAM = "sh";

    /**
     * @param command the shell command
     * @param env variables added last, overriding the worker's and the {@code SWALE_*} ones
     * @param timeout optional duration after which the attempt ends and the command is killed
     */
    record Params(@JsonProperty(required = true) String command, Map<String, String> env, String timeout) {
        Params {
            if (command == null) {
                throw new IllegalArgumentException("`command` is required: a string");
            }
            env = env == null ? Map.of() : env;
            for (Map.Entry<String, String> e : env.entrySet()) {
                if (e.getValue() == null) {
                    throw new IllegalArgumentException("`env." + e.getKey() + "` must be a string, not null");
                }
                if (e.getKey().isEmpty() || e.getKey().indexOf('=') >= 0 || e.getKey().indexOf('\0') >= 0) {
                    throw new IllegalArgumentException("`env` name `" + e.getKey()
                            + "` is not a valid environment variable name (empty, or holds `=` or NUL)");
                }
            }
            env = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
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
        return ProcessRunner.run(new ProcessRunner.Launch(PROGRAM, List.of(PROGRAM, "-c", params.command()),
                environment(context, params.env()), Optional.empty(), timeout), context);
    }

    /** The worker's environment, then the {@code SWALE_*} variables, then {@code env}. */
    static Map<String, String> environment(AttemptContext context, Map<String, String> env) {
        Map<String, String> all = new LinkedHashMap<>(context.environment());
        all.put("SWALE_RUN_ID", context.runId());
        all.put("SWALE_GRAPH", Objects.toString(context.graph(), ""));
        all.put("SWALE_PARTITION", Objects.toString(context.partition(), ""));
        all.put("SWALE_NODE", Objects.toString(context.node(), ""));
        all.put("SWALE_ATTEMPT", Long.toString(context.attempt()));
        all.put("SWALE_INPUTS", OperatorJson.STRICT.writeValueAsString(context.inputs()));
        all.putAll(env);
        return all;
    }
}
