package io.swale.kafka;

import java.util.Collection;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;

/**
 * Tells when a listener is given partitions it did not hold (with the cooperative assignor a rebalance names only
 * those; with an eager one, every partition it is given): their previous owner may have died between a
 * submission and its dispatch. A listener's first assignment counts too, as after a restart.
 */
public final class TakeoverListener implements ConsumerRebalanceListener {
    private final Runnable onTakeover;

    public TakeoverListener(Runnable onTakeover) {
        this.onTakeover = onTakeover;
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        // a partition given up needs nothing: its records stay uncommitted for the next owner
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        if (!partitions.isEmpty()) {
            onTakeover.run();
        }
    }
}
