package io.swale.kafka;

import io.swale.trigger.TriggerHandler;
import io.swale.trigger.TriggerMessages;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Reads trigger messages from {@code swale.triggers} and starts runs; failures are classified by SwaleException. */
public final class TriggersListener {
    private final TriggerHandler handler;

    public TriggersListener(TriggerHandler handler) {
        this.handler = handler;
    }

    public void onTrigger(ConsumerRecord<String, byte[]> record) {
        handler.handle(TriggerMessages.parse(record.value(), RecordHeaders.of(record)));
    }
}
