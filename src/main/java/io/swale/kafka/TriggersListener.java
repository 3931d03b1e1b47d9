package io.swale.kafka;

import io.swale.trigger.TriggerHandler;
import io.swale.trigger.TriggerMessages;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/** Reads trigger messages from {@code swale.triggers} and starts runs; failures are classified by SwaleException. */
public final class TriggersListener {
    private final TriggerHandler handler;

    public TriggersListener(TriggerHandler handler) {
        this.handler = handler;
    }

    public void onTrigger(ConsumerRecord<String, byte[]> record) {
        handler.handle(TriggerMessages.parse(record.value(), name -> {
            Header h = record.headers().lastHeader(name);
            return h == null || h.value() == null ? Optional.empty()
                    : Optional.of(new String(h.value(), StandardCharsets.UTF_8));
        }));
    }
}
