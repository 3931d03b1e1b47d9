package io.swale.operator;

import io.swale.definition.OperatorCatalog;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** The operators a deployment knows, by name. */
public final class OperatorRegistry implements OperatorCatalog {
    private final Map<String, Operator> operators = new LinkedHashMap<>();

    public OperatorRegistry(Collection<? extends Operator> all) {
        for (Operator o : all) {
            operators.put(o.name(), o);
        }
    }

    /** The built-in operators: shell, subprocess, http, object_exists and noop. */
    public static OperatorRegistry builtIn() {
        return builtIn(HostGuards.NONE, S3Settings.DEFAULT);
    }

    /** The built-in operators with guards for http targets and the settings of s3:// objects. */
    public static OperatorRegistry builtIn(HostGuards guards, S3Settings s3) {
        return new OperatorRegistry(List.of(new ShellOperator(), new SubprocessOperator(), new HttpOperator(guards),
                new ObjectExistsOperator(s3), new NoopOperator()));
    }

    public Optional<Operator> find(String name) {
        return Optional.ofNullable(operators.get(name));
    }

    @Override
    public ParamsCheck check(String operator, JsonNode params) {
        Optional<Operator> found = find(operator);
        if (found.isEmpty()) {
            return new ParamsCheck.UnknownOperator();
        }
        try {
            found.get().checkParams(params);
            return new ParamsCheck.Valid();
        } catch (InvalidParamsException e) {
            return new ParamsCheck.Invalid(e.getMessage());
        } catch (JacksonException e) {
            // an operator deserializing params itself: the parser's own message is the explanation
            return new ParamsCheck.Invalid(e.getOriginalMessage());
        }
    }

    public Collection<Operator> all() {
        return operators.values();
    }
}
