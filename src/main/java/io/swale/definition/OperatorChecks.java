package io.swale.definition;

import io.swale.graph.Node;
import io.swale.operator.InvalidParamsException;
import io.swale.operator.Operator;
import io.swale.operator.OperatorRegistry;
import io.swale.template.ParamsTemplates;
import io.swale.template.TemplateProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.core.JacksonException;

/** G8, per node in file order: the operator and its params, then the templates in the params. */
final class OperatorChecks {
    private OperatorChecks() {}

    static List<Fault> check(RawDefinition d, OperatorRegistry registry) {
        List<Fault> faults = new ArrayList<>();
        Map<String, List<String>> producers = d.producers();
        Set<String> names = d.nodeNames();
        for (Node n : d.nodes()) {
            operator(n, registry).ifPresent(faults::add);
            for (TemplateProblem p : ParamsTemplates.check(n.params(), d.upstreamsOf(n, producers, names))) {
                FaultKind kind = switch (p.kind()) {
                    case INVALID_TEMPLATE -> FaultKind.INVALID_TEMPLATE;
                    case UNKNOWN_UPSTREAM -> FaultKind.UNKNOWN_TEMPLATE_UPSTREAM;
                };
                faults.add(Fault.ofNode(kind, n.name(),
                        "node `" + n.name() + "`: parameter `" + p.path() + "`: " + p.message()));
            }
        }
        return faults;
    }

    private static Optional<Fault> operator(Node n, OperatorRegistry registry) {
        Optional<Operator> operator = registry.find(n.operator());
        if (operator.isEmpty()) {
            return Optional.of(Fault.ofNode(FaultKind.UNKNOWN_OPERATOR, n.name(),
                    "node `" + n.name() + "`: unknown operator `" + n.operator() + "`"));
        }
        try {
            operator.get().checkParams(n.params());
            return Optional.empty();
        } catch (InvalidParamsException | JacksonException e) {
            // a JacksonException is an operator deserializing params itself; its message is the explanation
            String why = e instanceof JacksonException j ? j.getOriginalMessage() : e.getMessage();
            return Optional.of(Fault.ofNode(FaultKind.INVALID_PARAMS, n.name(),
                    "node `" + n.name() + "`: invalid params for operator `" + n.operator() + "`: " + why));
        }
    }
}
