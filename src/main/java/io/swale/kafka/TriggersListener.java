package io.swale.kafka;

import io.swale.task.SwaleException;
import io.swale.trigger.TriggerHandler;
import io.swale.trigger.TriggerMessages;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Reads trigger messages from {@code swale.triggers} and starts runs; failures are classified by SwaleException. */
public final class TriggersListener {
    private final TriggerHandler handler;
    private final long maxBytes;

    /** @param maxBytes a larger record value is refused unread (dead-lettered at once) */
    public TriggersListener(TriggerHandler handler, long maxBytes) {
        this.handler = handler;
        this.maxBytes = maxBytes;
    }

    public void onTrigger(ConsumerRecord<String, byte[]> record) {
        if (record.value() != null && record.value().length > maxBytes) {
            throw new SwaleException.Malformed("trigger of " + record.value().length + " bytes is over the limit of "
                    + maxBytes + " bytes (swale.scheduler.max-trigger-size)");
        }
        handler.handle(TriggerMessages.parse(record.value(), RecordHeaders.of(record)));
    }
}
