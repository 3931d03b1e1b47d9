package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.record.RecordException;
import io.swale.task.SwaleException;
import java.net.ConnectException;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import redis.clients.jedis.exceptions.JedisBusyException;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

class ListenerFailureTest {
    /** As the container hands a listener's failure to the error handler. */
    private static Exception asListenerFailure(Throwable cause) {
        return new ListenerExecutionFailedException("Listener failed", cause);
    }

    /** As the events listener names its failed record. */
    private static Exception asBatchFailure(Throwable cause) {
        return asListenerFailure(new BatchListenerFailedException("advance failed", cause, 3));
    }

    @Test
    void redisNotAnsweringIsUnavailable() {
        assertThat(ListenerFailure.of(asBatchFailure(new JedisConnectionException("Failed to connect to 127.0.0.1:6379.",
                new ConnectException("Connection refused"))))).isEqualTo(ListenerFailure.UNAVAILABLE);
        assertThat(ListenerFailure.of(asListenerFailure(new JedisConnectionException("Unexpected end of stream."))))
                .isEqualTo(ListenerFailure.UNAVAILABLE);
        assertThat(ListenerFailure.of(asListenerFailure(new JedisException("Could not get a resource from the pool",
                new NoSuchElementException("Timeout waiting for idle object"))))).isEqualTo(ListenerFailure.UNAVAILABLE);
    }

    /**
     * A Cluster client that ran out of attempts during a failover attaches the connection errors as suppressed, not
     * as the cause: was UNKNOWN, so a valid trigger was dead-lettered after a few seconds of a failover.
     */
    @Test
    void aRedisClusterOutOfAttemptsIsUnavailable() {
        JedisClusterOperationException outOfAttempts = new JedisClusterOperationException("No more cluster attempts left.");
        outOfAttempts.addSuppressed(new JedisConnectionException("Failed to connect to 127.0.0.1:7001.",
                new ConnectException("Connection refused")));
        assertThat(ListenerFailure.of(asListenerFailure(outOfAttempts))).isEqualTo(ListenerFailure.UNAVAILABLE);
        assertThat(ListenerFailure.of(asBatchFailure(new JedisClusterOperationException("Cluster retry deadline exceeded."))))
                .isEqualTo(ListenerFailure.UNAVAILABLE);
        assertThat(ListenerFailure.of(new JedisClusterOperationException("No reachable node in cluster.")))
                .isEqualTo(ListenerFailure.UNAVAILABLE);
        // keys of two slots in one command is a bug, not an outage
        assertThat(ListenerFailure.of(new JedisClusterOperationException(
                "No way to dispatch this command to Redis Cluster because keys have different slots.")))
                .isEqualTo(ListenerFailure.UNKNOWN);
    }

    @Test
    void aRedisStartingOrBusyIsUnavailable() {
        assertThat(ListenerFailure.of(asBatchFailure(new JedisDataException("LOADING Redis is loading the dataset in memory"))))
                .isEqualTo(ListenerFailure.UNAVAILABLE);
        assertThat(ListenerFailure.of(asListenerFailure(new JedisBusyException(
                "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE."))))
                .isEqualTo(ListenerFailure.UNAVAILABLE);
        assertThat(ListenerFailure.of(new JedisDataException("READONLY You can't write against a read only replica.")))
                .isEqualTo(ListenerFailure.UNAVAILABLE);
    }

    @Test
    void anErrorReplyOfRedisIsNotUnavailable() {
        assertThat(ListenerFailure.of(asListenerFailure(new JedisDataException("ERR wrong number of arguments"))))
                .isEqualTo(ListenerFailure.UNKNOWN);
        // a prefix, not any word that starts the same
        assertThat(ListenerFailure.of(new JedisDataException("LOADINGX something"))).isEqualTo(ListenerFailure.UNKNOWN);
    }

    @Test
    void aRetriableKafkaErrorIsUnavailable() {
        assertThat(ListenerFailure.of(asBatchFailure(new KafkaException("Send failed",
                new ExecutionException(new TimeoutException("Expiring 1 record(s) after 30000 ms"))))))
                .isEqualTo(ListenerFailure.UNAVAILABLE);
        assertThat(ListenerFailure.of(asListenerFailure(new NotLeaderOrFollowerException("moved"))))
                .isEqualTo(ListenerFailure.UNAVAILABLE);
        assertThat(ListenerFailure.of(asListenerFailure(new java.util.concurrent.TimeoutException())))
                .isEqualTo(ListenerFailure.UNAVAILABLE);
        // not retriable: the record is too large whatever happens
        assertThat(ListenerFailure.of(asListenerFailure(new RecordTooLargeException("too large"))))
                .isEqualTo(ListenerFailure.UNKNOWN);
    }

    @Test
    void aBadRecordIsPermanentEvenWhenRedisIsAlsoInTheChain() {
        assertThat(ListenerFailure.of(asBatchFailure(new SwaleException.Malformed("not a task-terminated event"))))
                .isEqualTo(ListenerFailure.PERMANENT);
        assertThat(ListenerFailure.of(asListenerFailure(new SwaleException.UnknownGraph("g"))))
                .isEqualTo(ListenerFailure.PERMANENT);
        assertThat(ListenerFailure.of(asListenerFailure(new RecordException("swale:run:g:p", "undecodable run record"))))
                .isEqualTo(ListenerFailure.PERMANENT);
        assertThat(ListenerFailure.of(new JedisConnectionException("wrapped", new SwaleException.Malformed("bad"))))
                .isEqualTo(ListenerFailure.PERMANENT);
    }

    @Test
    void stateNotSeenYetIsCatchingUp() {
        assertThat(ListenerFailure.of(asListenerFailure(new SwaleException.UnknownDefinition("abc"))))
                .isEqualTo(ListenerFailure.CATCHING_UP);
        assertThat(ListenerFailure.of(asBatchFailure(new SwaleException.Contended("g", "p"))))
                .isEqualTo(ListenerFailure.CATCHING_UP);
    }

    @Test
    void anythingElseIsUnknown() {
        assertThat(ListenerFailure.of(asListenerFailure(new IllegalStateException("a bug"))))
                .isEqualTo(ListenerFailure.UNKNOWN);
        assertThat(ListenerFailure.of(new NullPointerException())).isEqualTo(ListenerFailure.UNKNOWN);
    }
}
