package io.swale.roles;

import io.swale.kafka.EventsListener;
import io.swale.kafka.ListenerContainers;
import io.swale.kafka.SwaleTopics;
import io.swale.kafka.TakeoverListener;
import io.swale.kafka.TriggersListener;
import io.swale.periodic.SyncService;
import io.swale.run.AfterFaultReconcile;
import io.swale.run.GraphRuns;
import io.swale.settings.SwaleProperties;
import io.swale.trigger.TriggerHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.stereotype.Component;

/** The scheduler role: a first sync pass, then the events and triggers listeners. */
@Component
public class SchedulerRole implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(SchedulerRole.class);
    private final SwaleProperties props;
    private final SyncService sync;
    private final ConcurrentMessageListenerContainer<String, byte[]> events;
    private final ConcurrentMessageListenerContainer<String, byte[]> triggers;
    private volatile boolean running;

    public SchedulerRole(SwaleProperties props, SyncService sync, ListenerContainers containers, SwaleTopics topics,
            GraphRuns graphRuns, TriggerHandler triggerHandler, AfterFaultReconcile afterFault) {
        this.props = props;
        this.sync = sync;
        EventsListener listener = new EventsListener(graphRuns);
        this.events = containers.batchListener(topics.events(), topics.schedulerGroup(),
                props.kafka().listenerConcurrency(), listener::onEvents);
        // events partitions that come from another scheduler may come from one that died mid-advance
        this.events.getContainerProperties().setConsumerRebalanceListener(
                new TakeoverListener(() -> afterFault.request("events partitions assigned")));
        TriggersListener triggersListener = new TriggersListener(triggerHandler,
                props.scheduler().maxTriggerSize().toBytes());
        this.triggers = containers.recordListener(topics.triggers(), topics.triggersGroup(),
                props.kafka().listenerConcurrency(), triggersListener::onTrigger);
    }

    @Override
    public void start() {
        if (!props.hasRole("scheduler")) {
            return;
        }
        try {
            sync.sync();
        } catch (RuntimeException e) {
            log.warn("first sync pass failed, the next pass retries: {}", e.toString());
        }
        events.start();
        triggers.start();
        running = true;
    }

    @Override
    public void stop() {
        triggers.stop();
        events.stop();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 200;
    }
}
