package io.swale.definition;

import io.swale.graph.Node;
import io.swale.template.ParamsTemplates;
import io.swale.template.TemplateProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** G8, per node in file order: the operator and its params, then the templates in the params. */
final class OperatorChecks {
    private OperatorChecks() {}

    static List<Fault> check(RawDefinition d, OperatorCatalog registry) {
        List<Fault> faults = new ArrayList<>();
        Map<String, List<String>> producers = d.producers();
        Set<String> names = d.nodeNames();
        for (int i = 0; i < d.nodes().size(); i++) {
            Node n = d.nodes().get(i);
            operator(n, registry).ifPresent(faults::add);
            for (TemplateProblem p : ParamsTemplates.check(n.params(), d.upstreamsOf(n, producers, names),
                    MapChecks.isMapped(d, i))) {
                FaultKind kind = switch (p.kind()) {
                    case INVALID_TEMPLATE -> FaultKind.INVALID_TEMPLATE;
                    case UNKNOWN_UPSTREAM -> FaultKind.UNKNOWN_TEMPLATE_UPSTREAM;
                    case ITEM_OUTSIDE_MAP -> FaultKind.ITEM_OUTSIDE_MAP;
                };
                faults.add(Fault.ofNode(kind, n.name(),
                        "node `" + n.name() + "`: parameter `" + p.path() + "`: " + p.message()));
            }
        }
        return faults;
    }

    private static Optional<Fault> operator(Node n, OperatorCatalog operators) {
        return switch (operators.check(n.operator(), n.params())) {
            case OperatorCatalog.ParamsCheck.Valid v -> Optional.empty();
            case OperatorCatalog.ParamsCheck.UnknownOperator u -> Optional.of(Fault.ofNode(FaultKind.UNKNOWN_OPERATOR,
                    n.name(), "node `" + n.name() + "`: unknown operator `" + n.operator() + "`"));
            case OperatorCatalog.ParamsCheck.Invalid invalid -> Optional.of(Fault.ofNode(FaultKind.INVALID_PARAMS,
                    n.name(), "node `" + n.name() + "`: invalid params for operator `" + n.operator() + "`: "
                            + invalid.why()));
        };
    }
}
