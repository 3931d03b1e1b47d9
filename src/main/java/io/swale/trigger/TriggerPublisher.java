package io.swale.trigger;

import io.swale.cron.Firing;

/** Sends the trigger message of a firing (empty value, the headers of §4.6), keyed by graph. */
public interface TriggerPublisher {
    /** Returns once the message is acknowledged; throws when it could not be sent. */
    void publish(String graph, Firing firing);
}
