package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.definition.DefinitionHash;
import io.swale.periodic.SyncService;
import io.swale.record.GraphRecord;
import io.swale.record.GraphRunRecord;
import io.swale.store.DefinitionStore.StoredText;
import io.swale.store.DefinitionStore;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Adoption (spec §4.5) as the API shows it: adopted definitions, refusals with their reason, edits. */
class AdoptionIT extends IntegrationSupport {

    @Autowired
    private DefinitionStore definitions;

    @Autowired
    private SyncService sync;

    @Test
    void anAssetConflictIsRefusedAndTheFirstGraphStaysAdopted() {
        clock.set("2026-09-22T08:00:00Z");
        String first = publish(producing("adopt_first", "shared_asset"));

        Answer conflict = post("/api/v1/definitions", producing("adopt_second", "shared_asset"));
        assertThat(conflict.status()).isEqualTo(409);
        assertThat(conflict.body().get("asset").asString()).isEqualTo("shared_asset");
        assertThat(conflict.body().get("graph").asString()).isEqualTo("adopt_first");

        JsonNode adoption = get("/api/v1/graphs/adopt_first/adoption").body();
        assertThat(adoption.get("adopted").get("definition").asString()).isEqualTo(first);
        assertThat(adoption.get("refusal").isNull()).isTrue();
        assertThat(get("/api/v1/graphs/adopt_second/adoption").status()).isEqualTo(404);
        assertThat(post("/api/v1/graphs/adopt_second/runs", "{\"partitions\":[\"20260915\"]}").status()).isEqualTo(404);
    }

    @Test
    void aRefusalIsVisibleWithItsReason() {
        clock.set("2026-09-22T09:00:00Z");
        // a pointer whose definition names another graph can only be written to the store directly
        String text = producing("adopt_named", "named_asset");
        String hash = DefinitionHash.of(text);
        definitions.putText(hash, new StoredText(text, "toml"));
        definitions.movePointer("adopt_alias", hash);
        sync.sync();

        Answer a = get("/api/v1/graphs/adopt_alias/adoption");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.body().get("adopted").isNull()).isTrue();
        assertThat(a.body().get("pending").asBoolean()).isTrue();
        JsonNode refusal = a.body().get("refusal");
        assertThat(refusal.get("definition").asString()).isEqualTo(hash);
        assertThat(refusal.get("reason").asString()).contains("adopt_named");
        assertThat(refusal.get("at").asString()).isEqualTo("2026-09-22T09:00:00Z");

        // the run list and the graph's view say why there is nothing, where they said "unknown"
        for (String path : new String[] {"/api/v1/graphs/adopt_alias/runs", "/api/v1/graphs/adopt_alias"}) {
            Answer runs = get(path);
            assertThat(runs.status()).isEqualTo(404);
            assertThat(runs.body().get("detail").asString()).as(path)
                    .contains("is published (definition " + hash + ") but its adoption was refused")
                    .contains("adopt_named");
        }
    }

    @Test
    void aGraphPublishedAndNotAdoptedYetIsSaidToBeSo() {
        String text = producing("adopt_later", "later_asset");
        String hash = DefinitionHash.of(text);
        definitions.putText(hash, new StoredText(text, "toml"));
        definitions.movePointer("adopt_later", hash);

        Answer runs = get("/api/v1/graphs/adopt_later/runs");
        assertThat(runs.status()).isEqualTo(404);
        assertThat(runs.body().get("detail").asString())
                .contains("is published (definition " + hash + ") and not adopted yet");
        assertThat(get("/api/v1/graphs/adopt_nothing/runs").body().get("detail").asString())
                .isEqualTo("graph `adopt_nothing` is unknown");
    }

    @Test
    void anEditAppliesFromTheNextRunAndARunKeepsItsDefinition() {
        clock.set("2026-09-23T08:00:00Z");
        String v1 = publish(dailyGraph("adopt_edit", Optional.empty(), Optional.empty()));
        assertThat(start("adopt_edit", "20260901")).containsExactly("20260901");
        String v2 = publish(graph("adopt_edit", "daily", Optional.empty(), Optional.empty(), "second version"));
        assertThat(v2).isNotEqualTo(v1);
        assertThat(get("/api/v1/graphs/adopt_edit/adoption").body().get("adopted").get("definition").asString())
                .isEqualTo(v2);
        assertThat(start("adopt_edit", "20260901", "20260902")).containsExactly("20260902");
        assertThat(run("adopt_edit", "20260901").map(GraphRunRecord::definition)).contains(v1);
        assertThat(run("adopt_edit", "20260902").map(GraphRunRecord::definition)).contains(v2);
    }

    private List<String> start(String graph, String... partitions) {
        Answer a = post("/api/v1/graphs/" + graph + "/runs",
                "{\"partitions\":[\"" + String.join("\",\"", partitions) + "\"]}");
        assertThat(a.status()).isEqualTo(200);
        List<String> started = new java.util.ArrayList<>();
        a.body().get("started").forEach(p -> started.add(p.asString()));
        return started;
    }

    @Test
    void anAdoptedDefinitionThatNoLongerLoadsLeavesOnlyItsOwnGraphOut() {
        clock.set("2026-09-22T10:00:00Z");
        // what a stored definition becomes when the limits are lowered under it: text that no longer loads (no node)
        String text = "[graph]\nname = \"adopt_broken\"\n";
        String hash = DefinitionHash.of(text);
        definitions.putText(hash, new StoredText(text, "toml"));
        definitions.movePointer("adopt_broken", hash);
        definitions.putGraphRecord("adopt_broken", new GraphRecord(hash, clock.millis()));
        try {
            String other = publish(producing("adopt_beside_broken", "beside_broken_asset"));
            assertThat(get("/api/v1/graphs/adopt_beside_broken/adoption").body().get("adopted").get("definition")
                    .asString()).isEqualTo(other);
            Answer graphs = get("/api/v1/graphs");
            assertThat(graphs.status()).isEqualTo(200);
            assertThat(graphs.body().findValuesAsString("name")).contains("adopt_broken", "adopt_beside_broken");
            // the graph's own view names the stored definition that fails, not a definition the caller sent
            Answer view = get("/api/v1/graphs/adopt_broken");
            assertThat(view.status()).isEqualTo(500);
            assertThat(view.body().get("definition").asString()).isEqualTo(hash);
            assertThat(view.body().get("detail").asString()).contains(hash).contains("no longer loads");
        } finally {
            // a definition that loads adopts over it, which leaves the shared store as the other tests expect it
            publish(producing("adopt_broken", "broken_asset"));
        }
        assertThat(get("/api/v1/graphs/adopt_broken").status()).isEqualTo(200);
    }

    private static String producing(String graph, String asset) {
        return "[graph]\nname = \"" + graph + "\"\n\n[[node]]\nname = \"make\"\nproduces = \"" + asset
                + "\"\noperator = \"noop\"\n[node.params]\n";
    }
}
