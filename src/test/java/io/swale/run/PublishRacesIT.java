package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.definition.CronCheck;
import io.swale.definition.DefinitionFormat;
import io.swale.definition.DefinitionLoader;
import io.swale.operator.OperatorRegistry;
import io.swale.store.DefinitionStore;
import io.swale.task.SwaleException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Two publishes at once, as from two API replicas (spec §1.9, §14 #1), on a real redis-server: the second publish is
 * made to land between the first one's check of the other graphs and its move of the pointer.
 */
class PublishRacesIT {

    private static byte[] producing(String graph, String asset) {
        return """
                [graph]
                name = "%s"
                [[node]]
                name = "make"
                operator = "noop"
                produces = "%s"
                """.formatted(graph, asset).getBytes(StandardCharsets.UTF_8);
    }

    /** A catalog on the harness's store whose {@code atMove} runs, once, ahead of its next pointer move. */
    private static DefinitionCatalog movingAfter(RunHarness h, AtomicReference<Runnable> atMove) {
        return new DefinitionCatalog(RunHarness.before(DefinitionStore.class, h.definitionStore, (method, args) -> {
            if (method.equals("movePointer")) {
                atMove.getAndSet(() -> { }).run();
            }
        }), new DefinitionLoader(OperatorRegistry.builtIn(), CronCheck.FIVE_FIELDS));
    }

    /** Was: both answered changed, the second graph's pointer was written, and only adoption refused it. */
    @Test
    void ofTwoGraphsPublishedAtOnceThatProduceOneAssetTheSecondIsRefused() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String alpha = RunHarness.graphName("alpha");
            String beta = RunHarness.graphName("beta");
            String asset = RunHarness.graphName("orders");
            AtomicReference<Runnable> atMove = new AtomicReference<>(
                    () -> assertThat(h.catalog.publish(producing(beta, asset), DefinitionFormat.TOML).changed()).isTrue());

            assertThatThrownBy(() -> movingAfter(h, atMove).publish(producing(alpha, asset), DefinitionFormat.TOML))
                    .isInstanceOf(SwaleException.AssetConflict.class).hasMessageContaining(beta);

            assertThat(h.definitionStore.currentPointers()).containsKey(beta).doesNotContainKey(alpha);
        }
    }

    /** Spec §1.9: `changed` = the pointer was absent or different, decided in the same atomic step as the move. */
    @Test
    void ofOneDefinitionPublishedTwiceAtOnceOnlyOneAnswersChanged() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("twice");
            byte[] text = producing(g, RunHarness.graphName("asset"));
            AtomicReference<Runnable> atMove = new AtomicReference<>(
                    () -> assertThat(h.catalog.publish(text, DefinitionFormat.TOML).changed()).isTrue());

            assertThat(movingAfter(h, atMove).publish(text, DefinitionFormat.TOML).changed()).isFalse();
        }
    }

    /** A pointer that moved meanwhile without a conflict: the publish checks again and moves its own. */
    @Test
    void aPublishOvertakenByAnotherGraphsPublishWithoutAConflictIsStored() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String first = RunHarness.graphName("first");
            String other = RunHarness.graphName("other");
            AtomicReference<Runnable> atMove = new AtomicReference<>(() -> h.catalog.publish(
                    producing(other, RunHarness.graphName("b")), DefinitionFormat.TOML));

            DefinitionCatalog.Published p = movingAfter(h, atMove).publish(producing(first,
                    RunHarness.graphName("a")), DefinitionFormat.TOML);

            assertThat(p.changed()).isTrue();
            assertThat(h.definitionStore.currentPointers()).containsEntry(first, p.hash()).containsKey(other);
        }
    }
}
