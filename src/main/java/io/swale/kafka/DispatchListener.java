package io.swale.kafka;

import io.swale.worker.PoolWorker;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.BatchAcknowledgingConsumerAwareMessageListener;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.support.Acknowledgment;

/**
 * The listener of one pool's dispatches and its flow control: each poll goes to the worker's free slots
 * through the {@link DispatchIntake}; while every slot is busy the container is paused, and the first slot
 * that frees resumes it. The worker knows nothing of Kafka: it tells its free slots and when one frees.
 */
public final class DispatchListener implements BatchAcknowledgingConsumerAwareMessageListener<String, byte[]> {
    private final PoolWorker worker;
    private final DispatchIntake intake;
    private final long slotWaitMs;
    private final ConcurrentMessageListenerContainer<String, byte[]> container;

    /** A listener of {@code topic} for {@code worker}, not started; it calls back only once started. */
    public DispatchListener(ListenerContainers containers, String topic, String group, int batch, PoolWorker worker,
            long slotWaitMs) {
        this.worker = worker;
        this.intake = new DispatchIntake(containers);
        this.slotWaitMs = slotWaitMs;
        this.container = containers.dispatchListener(topic, group, batch, this);
        this.container.getContainerProperties().setConsumerRebalanceListener(new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                // the dispatches of claims in doubt from these partitions now go to another replica, which must not
                // queue behind the grants kept for them here; released off the consumer thread
                java.util.Set<String> gone = intake.inDoubtFrom(partitions);
                if (!gone.isEmpty()) {
                    worker.releaseKeptGrants(gone::contains, release -> Thread.ofVirtual()
                            .name("swale-release-kept-grants").start(release));
                }
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                // nothing to do: a dispatch carries all a claim needs
            }
        });
        worker.onSlotFreed(this::resume);
    }

    public void start() {
        container.start();
    }

    public void stop() {
        container.stop();
    }

    @Override
    public void onMessage(List<ConsumerRecord<String, byte[]>> records, Acknowledgment ack, Consumer<?, ?> consumer) {
        if (intake.take(worker, records, consumer, slotWaitMs)) {
            pauseIfFull();
        }
    }

    /**
     * Pauses while every slot is taken. The second look closes the race with an attempt that ended between
     * the first look and the pause: its resume may have come before the pause, so whoever sees a free slot
     * after pausing resumes.
     */
    private void pauseIfFull() {
        if (worker.freeSlots() == 0) {
            container.pause();
            if (worker.freeSlots() > 0 && !worker.isDraining()) {
                resume();
            }
        }
    }

    /** A slot freed (called on a pool thread at each attempt's end): resume if paused. */
    private void resume() {
        if (container.isPauseRequested()) {
            container.resume();
        }
    }
}
