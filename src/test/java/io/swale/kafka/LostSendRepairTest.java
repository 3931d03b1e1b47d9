package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.swale.task.SwaleMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.KafkaException;

class LostSendRepairTest {
    static final Throwable AWAY = new KafkaException("Send failed", new TimeoutException(
            "Topic swale.pool.default not present in metadata after 10000 ms."));
    static final Throwable REFUSED = new RecordTooLargeException("too large");
    static final Function<String, CompletionStage<?>> DONE = f -> CompletableFuture.completedFuture(null);

    private final AtomicBoolean answers = new AtomicBoolean();
    private final List<Set<String>> asked = new CopyOnWriteArrayList<>();
    private final List<String> passes = new CopyOnWriteArrayList<>();
    private final List<Long> passNanos = new CopyOnWriteArrayList<>();
    private final List<String> counted = new CopyOnWriteArrayList<>();
    private final SwaleMetrics metrics = new SwaleMetrics() {
        @Override
        public void sendLost(String kind, String reason) {
            counted.add(kind + " " + reason);
        }
    };
    private LostSendRepair repair;

    private LostSendRepair repair(Duration spacing, Duration awayAtMost, Function<String, CompletionStage<?>> pass) {
        repair = new LostSendRepair(topics -> {
            asked.add(topics);
            return answers.get();
        }, ListenerFailure::isOutage, fault -> {
            passNanos.add(System.nanoTime());
            passes.add(fault);
            return pass.apply(fault);
        }, new LostSendRepair.Settings(spacing, Duration.ofMillis(10), Duration.ofMillis(20), awayAtMost), metrics);
        return repair;
    }

    private LostSendRepair repair(Duration spacing) {
        return repair(spacing, Duration.ofMinutes(1), DONE);
    }

    @AfterEach
    void close() {
        if (repair != null) {
            repair.close();
        }
    }

    @Test
    void whileATopicIsAwayItsSendsAreGivenUpAndNoPassRunsThenOnePassRepairsEveryLoss() {
        LostSendRepair r = repair(Duration.ZERO);
        assertThat(r.kafkaAway("swale.pool.default")).isFalse();
        r.lost("dispatch", "swale.pool.default", AWAY, true);
        assertThat(r.kafkaAway("swale.pool.default")).as("away after a send that waited and found no Kafka").isTrue();
        assertThat(r.kafkaAway("swale.events")).as("a topic that lost nothing").isFalse();
        r.lost("event", "swale.events", AWAY, true);
        for (int i = 0; i < 98; i++) {
            r.lost(i % 2 == 0 ? "dispatch" : "event", i % 2 == 0 ? "swale.pool.default" : "swale.events",
                    LostSends.UNSENT, false);
        }
        await().until(() -> asked.size() >= 5);
        assertThat(passes).as("asked while Kafka did not answer").isEmpty();
        assertThat(r.kafkaAway("swale.events")).isTrue();
        assertThat(asked.getLast()).as("the topics that lost records").containsExactlyInAnyOrder(
                "swale.pool.default", "swale.events");

        answers.set(true);
        await().until(() -> !passes.isEmpty());
        assertThat(passes.getFirst()).isEqualTo("sends given up on (100)");
        assertThat(r.kafkaAway("swale.pool.default")).isFalse();
        assertThat(counted).hasSize(100).startsWith("dispatch unreachable", "event unreachable", "dispatch unsent",
                "event unsent");
    }

    @Test
    void aRecordThatExpiredInTheBufferMakesNoTopicAwayAndIsRepairedOnceKafkaAnswers() {
        LostSendRepair r = repair(Duration.ZERO);
        r.lost("dispatch", "swale.pool.default", AWAY, false);
        assertThat(r.kafkaAway("swale.pool.default")).isFalse();
        await().until(() -> asked.size() >= 3);
        assertThat(passes).isEmpty();
        answers.set(true);
        await().until(() -> passes.size() == 1);
    }

    @Test
    void aRecordTheBrokerRefusedIsNotCountedNorMakesKafkaAway() {
        answers.set(true);
        LostSendRepair r = repair(Duration.ZERO);
        r.lost("event", "swale.events", REFUSED, true);
        assertThat(r.kafkaAway("swale.events")).isFalse();
        r.lost("dispatch", "swale.pool.default", AWAY, false);
        await().until(() -> passes.size() == 1);
        assertThat(passes.getFirst()).isEqualTo("sends given up on (1)");
        assertThat(asked).allSatisfy(topics -> assertThat(topics).containsExactly("swale.pool.default"));
        assertThat(counted).containsExactly("event refused", "dispatch unreachable");
    }

    @Test
    void aLossAfterAPassAsksForAnotherOnlyAfterTheSpacing() {
        answers.set(true);
        Duration spacing = Duration.ofMillis(400);
        LostSendRepair r = repair(spacing);
        r.lost("dispatch", "swale.pool.default", AWAY, false);
        await().until(() -> passes.size() == 1);
        r.lost("event", "swale.events", AWAY, false);
        await().until(() -> passes.size() == 2);
        assertThat(passes.get(1)).isEqualTo("sends given up on (1)");
        // asked for no sooner than the spacing after the first pass (less the first call's own time)
        assertThat(passNanos.get(1) - passNanos.get(0)).isGreaterThanOrEqualTo(spacing.toNanos() / 2);
    }

    @Test
    void aLossWhileAPassIsAskedForGetsAPassOfItsOwn() {
        answers.set(true);
        AtomicBoolean once = new AtomicBoolean();
        LostSendRepair r = repair(Duration.ofMillis(20), Duration.ofMinutes(1), f -> {
            if (once.compareAndSet(false, true)) {
                repair.lost("dispatch", "swale.pool.default", AWAY, false);
            }
            return CompletableFuture.completedFuture(null);
        });
        r.lost("dispatch", "swale.pool.default", AWAY, false);
        await().until(() -> passes.size() == 2);
        assertThat(passes).containsExactly("sends given up on (1)", "sends given up on (1)");
    }

    @Test
    void aPassThatFailedIsAskedForAgainWithWhatItWasToRepair() {
        AtomicInteger calls = new AtomicInteger();
        repair(Duration.ofMillis(20), Duration.ofMinutes(1), f -> calls.incrementAndGet() == 1
                ? CompletableFuture.failedFuture(new IllegalStateException("Redis away too"))
                : CompletableFuture.completedFuture(null));
        repair.lost("dispatch", "swale.pool.default", AWAY, true);
        repair.lost("event", "swale.events", AWAY, false);
        answers.set(true);
        await().until(() -> passes.size() == 2);
        assertThat(passes).containsExactly("sends given up on (2)", "sends given up on (2)");
    }

    @Test
    void aQuestionThatNeverAnswersLetsSendsBeTriedAndThePassGoOnAfterAwayAtMost() {
        LostSendRepair r = repair(Duration.ZERO, Duration.ofMillis(300), DONE);
        r.lost("dispatch", "swale.pool.default", AWAY, true);
        assertThat(r.kafkaAway("swale.pool.default")).isTrue();
        await().until(() -> passes.size() == 1);
        assertThat(r.kafkaAway("swale.pool.default")).isFalse();
        assertThat(asked.size()).as("asked until let go").isGreaterThan(1);
        r.lost("dispatch", "swale.pool.default", AWAY, true);
        assertThat(r.kafkaAway("swale.pool.default")).as("a send tried again and lost makes its topic away again")
                .isTrue();
    }

    @Test
    void aLaterOutageIsAskedAboutForItsOwnAwayAtMostAfterALetGo() {
        LostSendRepair r = repair(Duration.ZERO, Duration.ofMillis(300), DONE);
        r.lost("dispatch", "swale.pool.default", AWAY, true);
        await().until(() -> passes.size() == 1);
        // a quiet stretch longer than awayAtMost, then a second outage
        await().pollDelay(Duration.ofMillis(400)).until(() -> true);
        int before = asked.size();
        r.lost("event", "swale.events", AWAY, true);
        await().until(() -> passes.size() == 2);
        assertThat(asked.size() - before).as("questions asked in the second outage before it was let go")
                .isGreaterThan(2);
    }

    @Test
    void aSendGivenUpUnsentDoesNotMakeItsTopicAway() {
        assertThat(ListenerFailure.isOutage(LostSends.UNSENT)).isFalse();
        assertThat(ListenerFailure.isOutage(AWAY)).isTrue();
        LostSendRepair r = repair(Duration.ZERO);
        r.lost("dispatch", "swale.pool.default", LostSends.UNSENT, true);
        assertThat(r.kafkaAway("swale.pool.default")).isFalse();
        assertThat(counted).containsExactly("dispatch unsent");
    }

    @Test
    void aQuestionThatThrowsCountsAsKafkaAway() {
        AtomicInteger questions = new AtomicInteger();
        repair = new LostSendRepair(topics -> {
            if (questions.incrementAndGet() < 3) {
                throw new KafkaInspector.KafkaQueryException("timed out", new RuntimeException());
            }
            return true;
        }, ListenerFailure::isOutage, f -> {
            passes.add(f);
            return CompletableFuture.completedFuture(null);
        }, new LostSendRepair.Settings(Duration.ZERO, Duration.ofMillis(10), Duration.ZERO, Duration.ofMinutes(1)),
                SwaleMetrics.NONE);
        repair.lost("dispatch", "swale.pool.default", AWAY, true);
        await().until(() -> !passes.isEmpty());
        assertThat(questions.get()).isEqualTo(3);
    }

    @Test
    void aLossAfterCloseFailsNoSender() {
        LostSendRepair r = repair(Duration.ZERO);
        r.close();
        assertThatCode(() -> r.lost("dispatch", "swale.pool.default", AWAY, true)).doesNotThrowAnyException();
    }

    @Test
    void refusesNegativeWaitsOrNonPositiveIntervals() {
        Duration s = Duration.ofSeconds(1);
        assertThatThrownBy(() -> new LostSendRepair.Settings(s.negated(), s, s, s)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LostSendRepair.Settings(s, Duration.ZERO, s, s)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LostSendRepair.Settings(s, s, s.negated(), s)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LostSendRepair.Settings(s, s, s, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
