package io.swale.kafka;

import io.swale.task.SwaleException;
import io.swale.task.TaskIdentity;
import io.swale.task.TaskStep;
import io.swale.worker.DispatchSlots;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds one poll of a pool's dispatches to its worker: takes as many as the worker has free slots (in
 * order), claims them in one round trip, and goes on as slots free up, committing the offsets of what it
 * claimed once at the end of the poll. When every slot stays busy, it seeks each partition back to its first
 * record not taken, so those come again once a slot is free (the {@link DispatchListener} then pauses). A
 * malformed dispatch takes no slot: it goes to the dead-letter topic after the claims of its poll.
 */
final class DispatchIntake {
    private static final Logger log = LoggerFactory.getLogger(DispatchIntake.class);

    /** Run ids of claims whose call failed are remembered with their partition, at most this many. */
    private static final int IN_DOUBT_KEPT = 4_096;

    private final ListenerContainers containers;
    // the partition each claim in doubt came from: when it is revoked, that dispatch goes to another replica.
    // Touched on the consumer thread only (the poll, and the rebalance callbacks it runs)
    private final Map<String, TopicPartition> inDoubt = new java.util.LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, TopicPartition> eldest) {
            return size() > IN_DOUBT_KEPT;
        }
    };

    DispatchIntake(ListenerContainers containers) {
        this.containers = containers;
    }

    /** The run ids of the claims in doubt that came from {@code revoked}, forgotten here. */
    java.util.Set<String> inDoubtFrom(java.util.Collection<TopicPartition> revoked) {
        java.util.Set<String> runIds = new java.util.HashSet<>();
        inDoubt.entrySet().removeIf(e -> revoked.contains(e.getValue()) && runIds.add(e.getKey()));
        return runIds;
    }

    /**
     * Takes the records in order as slots free up, waiting for slots at most {@code slotWaitMs} in all (so a
     * poll never keeps the listener near its poll interval); when that runs out, or the worker drains, the rest
     * go back.
     *
     * @return whether some records went back to the topic
     */
    boolean take(DispatchSlots worker, List<ConsumerRecord<String, byte[]>> polled, Consumer<?, ?> consumer,
            long slotWaitMs) {
        List<ConsumerRecord<String, byte[]>> records = owned(polled, consumer.assignment(), worker.pool());
        long waitUntil = System.nanoTime() + slotWaitMs * 1_000_000;
        int next = 0;
        int claimed = 0;
        while (next < records.size()) {
            long waitMs = Math.max(0, (waitUntil - System.nanoTime()) / 1_000_000);
            int reserved;
            try {
                reserved = worker.reserve(records.size() - next, waitMs);
            } catch (InterruptedException e) {
                // what is claimed is committed and the rest handed back below, as when the wait runs out
                Thread.currentThread().interrupt();
                reserved = 0;
            }
            if (reserved == 0) {
                break;
            }
            int from = next;
            List<TaskIdentity> taken = new ArrayList<>(reserved);
            List<ConsumerRecord<String, byte[]>> malformed = new ArrayList<>();
            List<SwaleException> reasons = new ArrayList<>();
            for (; next < records.size(); next++) {
                ConsumerRecord<String, byte[]> record = records.get(next);
                try {
                    TaskIdentity id = TaskIdentity.fromHeaders(RecordHeaders.of(record));
                    if (taken.size() == reserved) {
                        break;
                    }
                    taken.add(id);
                    TaskStep.reached(TaskStep.Kind.DISPATCH_RECEIVED, id);
                } catch (SwaleException e) {
                    log.warn("malformed dispatch pool={} offset={} error={}", worker.pool(), record.offset(),
                            e.getMessage());
                    malformed.add(record);
                    reasons.add(e);
                }
            }
            worker.unreserve(reserved - taken.size());
            // A failed claim throws before the offsets are committed: the error handler's back-off hands the poll
            // over again, and a claim that Redis did commit is recognised by its claim id (InDoubtClaims).
            boolean ran;
            try {
                ran = worker.claimAndRun(taken, () -> {
                    for (int i = 0; i < malformed.size(); i++) {
                        containers.deadLetter(malformed.get(i), reasons.get(i));
                    }
                });
            } catch (RuntimeException e) {
                // only on failure: the partition of each dispatch taken, read again from its record
                for (ConsumerRecord<String, byte[]> record : records.subList(from, next)) {
                    if (!malformed.contains(record)) {
                        inDoubt.put(TaskIdentity.fromHeaders(RecordHeaders.of(record)).runId(),
                                new TopicPartition(record.topic(), record.partition()));
                    }
                }
                throw e;
            }
            if (!ran) {
                next = from;
                break;
            }
            claimed = next;
        }
        // one commit for every record of the poll that was claimed (or dead-lettered), after its claim; while an
        // earlier one is in flight the consumer merges it into the next (RecommittingConsumer.coalescing)
        if (claimed > 0) {
            consumer.commitAsync(nextOffsets(records.subList(0, claimed)), (offsets, e) -> {
                if (e != null) {
                    log.debug("dispatch offsets not committed pool={} error={}", worker.pool(), e.toString());
                }
            });
        }
        if (next < records.size()) {
            firstOffsets(records.subList(next, records.size())).forEach(consumer::seek);
            return true;
        }
        return false;
    }

    /**
     * The records of partitions this consumer still owns. A poll retried after a failure (spring-kafka retries the
     * same records, polling meanwhile) may hold records of partitions a rebalance gave another replica since: their
     * next owner reads them from the committed offset, and a seek of a partition not owned throws, which would turn
     * the retry of an outage into a failure that dead-letters the whole poll.
     */
    static List<ConsumerRecord<String, byte[]>> owned(List<ConsumerRecord<String, byte[]>> records,
            java.util.Set<TopicPartition> assignment, String pool) {
        List<ConsumerRecord<String, byte[]>> owned = records.stream()
                .filter(r -> assignment.contains(new TopicPartition(r.topic(), r.partition()))).toList();
        if (owned.size() < records.size()) {
            log.info("dispatches of partitions given to another replica left to it pool={} count={}", pool,
                    records.size() - owned.size());
        }
        return owned;
    }

    private static Map<TopicPartition, OffsetAndMetadata> nextOffsets(List<ConsumerRecord<String, byte[]>> records) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            out.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
        }
        return out;
    }

    private static Map<TopicPartition, Long> firstOffsets(List<ConsumerRecord<String, byte[]>> records) {
        Map<TopicPartition, Long> out = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            out.putIfAbsent(new TopicPartition(r.topic(), r.partition()), r.offset());
        }
        return out;
    }
}
