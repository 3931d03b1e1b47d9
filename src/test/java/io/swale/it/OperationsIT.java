package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import io.swale.graph.Partition;
import io.swale.kafka.SwaleTopics;
import io.swale.metrics.ConsumerLagMonitor;
import io.swale.record.GraphRunRecord;
import io.swale.run.Reconciler;
import io.swale.store.DefinitionStore;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.JsonNode;

/** Actuator (health groups, info, swale, prometheus after a run) and the OpenAPI document. */
class OperationsIT extends IntegrationTest {
    @Autowired
    Reconciler reconciler;

    @Autowired
    RunStore runs;

    @Autowired
    DefinitionStore definitions;

    @Autowired
    ConsumerLagMonitor lag;

    @Autowired
    KafkaTemplate<String, byte[]> kafka;

    @Autowired
    SwaleTopics topics;

    @Test
    void healthGroupsInfoAndSwaleEndpoint() {
        JsonNode readiness = api.get("/actuator/health/readiness").body();
        assertThat(readiness.get("status").asString()).isEqualTo("UP");
        assertThat(readiness.get("components").get("kafka").get("status").asString()).isEqualTo("UP");
        assertThat(readiness.get("components").get("redis").get("status").asString()).isEqualTo("UP");
        assertThat(api.get("/actuator/health/liveness").body().get("status").asString()).isEqualTo("UP");

        JsonNode info = api.get("/actuator/info").body().get("swale");
        assertThat(info.get("version").asString()).isNotBlank();
        assertThat(info.get("roles").toString()).contains("scheduler").contains("pool").contains("api");
        assertThat(info.get("pools").get("default").asInt()).isEqualTo(4);

        JsonNode swale = api.get("/actuator/swale").body();
        assertThat(swale.get("activeRuns").isNumber()).isTrue();
        assertThat(swale.get("runs").isArray()).isTrue();
        assertThat(swale.get("pools").get("default").get("slots").asInt()).isEqualTo(4);
    }

    @Test
    void prometheusShowsTheSwaleMetricsWithNonZeroValuesAfterRuns() throws Exception {
        String ok = unique("metrics");
        api.publish(Graphs.chain(ok, 2));
        api.start(ok, "p");
        awaitSettled(ok, "p");
        String bad = unique("metricsfail");
        api.publish(Graphs.failing(bad, "/nonexistent/never"));
        api.start(bad, "p");
        awaitSettled(bad, "p");
        // a run whose roots were never submitted: the reconciler's pass repairs it
        String repaired = unique("metricsrepair");
        api.publish(Graphs.chain(repaired, 1));
        String hash = definitions.graphRecord(repaired).orElseThrow().definition();
        runs.create(new RunKey(repaired, Partition.of("p")), GraphRunRecord.started(hash, System.currentTimeMillis()));
        assertThat(reconciler.pass().submitted()).isPositive();
        awaitSettled(repaired, "p");
        // a dispatch to a pool nobody in this context serves: its group lags
        kafka.send(topics.pool("unserved"), "x", new byte[0]).get();
        lag.measure();

        String text = api.text("/actuator/prometheus");

        for (String metric : List.of("swale_runs_started_total", "swale_runs_settled_total",
                "swale_tasks_terminated_total", "swale_tasks_ready_to_submitted_seconds_count",
                "swale_tasks_submitted_to_started_seconds_count", "swale_tasks_duration_seconds_count",
                "swale_reconciler_pass_seconds_count", "swale_reconciler_repairs_total", "swale_deadletters_total",
                "swale_kafka_consumer_lag")) {
            assertThat(max(text, metric)).as(metric).isPositive();
        }
        assertThat(text).contains("swale_runs_settled_total{graph=\"" + ok + "\",state=\"complete\"}");
        assertThat(text).contains("swale_runs_settled_total{graph=\"" + bad + "\",state=\"failed\"}");
        assertThat(text).containsPattern("swale_tasks_terminated_total\\{outcome=\"failed\",pool=\"default\"}");
        // issue 13: what workers terminated was counted under pool="unknown"
        assertThat(text).containsPattern("swale_tasks_terminated_total\\{outcome=\"succeeded\",pool=\"default\"}")
                .doesNotContainPattern("swale_tasks_terminated_total\\{outcome=\"(succeeded|failed)\",pool=\"unknown\"}");
    }

    /** The largest value of a metric over its series. */
    private static double max(String text, String metric) {
        Matcher m = Pattern.compile("(?m)^" + metric + "(\\{[^}]*})? ([0-9.eE+-]+)$").matcher(text);
        double max = 0;
        while (m.find()) {
            max = Math.max(max, Double.parseDouble(m.group(2)));
        }
        return max;
    }

    @Test
    void openApiDocumentParsesAndListsEveryPath() {
        String json = api.text("/v3/api-docs");
        SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(json, null, null);

        assertThat(parsed.getMessages()).isEmpty();
        OpenAPI doc = parsed.getOpenAPI();
        assertThat(doc.getPaths().keySet()).contains(
                "/api/v1/definitions", "/api/v1/definitions/validate", "/api/v1/graphs", "/api/v1/graphs/{graph}",
                "/api/v1/graphs/{graph}/runs", "/api/v1/graphs/{graph}/runs/{partition}",
                "/api/v1/graphs/{graph}/runs/{partition}/nodes/{node}/rerun",
                "/api/v1/graphs/{graph}/runs/{partition}/cancel", "/api/v1/graphs/{graph}/backfill",
                "/api/v1/pools", "/api/v1/pools/{pool}", "/api/v1/queues", "/api/v1/dead-letters", "/api/v1/dead-letters/{channel}",
                "/api/v1/dead-letters/{channel}/{letter}/rerun", "/api/v1/requests/{id}");
        for (Map.Entry<String, PathItem> p : doc.getPaths().entrySet()) {
            for (Map.Entry<PathItem.HttpMethod, Operation> op : p.getValue().readOperationsMap().entrySet()) {
                assertThat(op.getValue().getSummary()).as(op.getKey() + " " + p.getKey()).isNotBlank();
                boolean hasParams = p.getKey().contains("{") || op.getKey() == PathItem.HttpMethod.POST;
                if (hasParams) {
                    assertThat(op.getValue().getResponses().keySet()).as(op.getKey() + " " + p.getKey())
                            .anyMatch(code -> code.startsWith("4"));
                }
            }
        }
        assertThat(api.get("/swagger-ui.html").status()).isLessThan(400);
    }
}
