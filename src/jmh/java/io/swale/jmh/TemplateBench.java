package io.swale.jmh;

import io.swale.record.RecordCodec;
import io.swale.template.ParamsTemplates;
import io.swale.template.RenderContext;
import io.swale.template.UpstreamStatus;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import tools.jackson.databind.JsonNode;

/** Rendering a node's params with references to the partition and to upstream outputs: once per attempt. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TemplateBench {
    private JsonNode params;
    private JsonNode plain;
    private RenderContext context;

    @Setup
    public void setUp() {
        params = RecordCodec.JSON.readTree("""
                {"command": "load --day {{ partition }} --rows {{ upstream.extract.rows }} --from {{ upstream.extract.path }}",
                 "url": "https://example.invalid/sales/load?run={{ run.id }}&home={{ env.HOME }}",
                 "retries": 3,
                 "tags": ["{{ partition }}", "static", "{{ upstream.clean.table }}"],
                 "nested": {"a": {"b": "{{ upstream.clean.table }}-{{ partition }}"}}}
                """);
        plain = RecordCodec.JSON.readTree("""
                {"command": "echo nothing to render", "retries": 3, "tags": ["a", "b"], "nested": {"a": {"b": "c"}}}
                """);
        context = new RenderContext("sales", "load", "20260915", "sales-20260915-load-r0",
                Map.of("extract", RecordCodec.JSON.readTree("{\"rows\": 1200, \"path\": \"/data/x.csv\"}"),
                        "clean", RecordCodec.JSON.readTree("{\"table\": \"clean_sales\"}")),
                Map.of("extract", new UpstreamStatus("succeeded", Optional.empty()),
                        "clean", new UpstreamStatus("succeeded", Optional.empty())),
                name -> Optional.of("/home/swale"));
    }

    @Benchmark
    public JsonNode renderWithReferences() {
        return ParamsTemplates.render(params, context);
    }

    @Benchmark
    public JsonNode renderPlain() {
        return ParamsTemplates.render(plain, context);
    }
}
