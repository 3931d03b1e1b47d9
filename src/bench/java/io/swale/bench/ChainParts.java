package io.swale.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A chain's makespan p50 and its parts, in edge p50s (the unit of issue 18's chain target): the edges and the
 * instances summed at their mean, as a run adds them up, and the run's start and end at their p50.
 */
final class ChainParts {
    private ChainParts() {
    }

    static Map<String, Double> of(ShapeResult chain) {
        double edge = chain.edge.ms(50);
        Map<String, Double> parts = new LinkedHashMap<>();
        parts.put("makespan", Report.round(chain.makespan.ms(50) / edge));
        parts.put("edges_at_their_mean", Report.round((chain.nodesPerRun - 1) * chain.edge.meanMs() / edge));
        parts.put("instances_at_their_mean", Report.round(chain.nodesPerRun * chain.startedToTerminated.meanMs() / edge));
        parts.put("start", Report.round(chain.requestedToFirstStarted.ms(50) / edge));
        parts.put("end", Report.round(chain.lastTerminatedToSettled.ms(50) / edge));
        return parts;
    }

    /** The table's line. */
    static String line(ShapeResult chain) {
        Map<String, Double> p = of(chain);
        return String.format("%d-node chain in edge p50s (%d runs, %d timed in µs): makespan p50 %.2f ≈ edges at their"
                + " mean %.2f + instances at their mean %.2f + start %.2f + end %.2f; from the run records' ms times"
                + " %.2f%n", chain.nodesPerRun, chain.runs, chain.runsTimedInUs, p.get("makespan"),
                p.get("edges_at_their_mean"), p.get("instances_at_their_mean"), p.get("start"), p.get("end"),
                Report.round(chain.makespanOfRecords.ms(50) / chain.edge.ms(50)));
    }
}
