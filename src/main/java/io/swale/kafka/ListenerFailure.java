package io.swale.kafka;

import io.swale.cron.InvalidCronException;
import io.swale.definition.DefinitionParseException;
import io.swale.definition.InvalidDefinitionException;
import io.swale.definition.InvalidDurationException;
import io.swale.graph.InvalidPartitionException;
import io.swale.record.RecordException;
import io.swale.store.UnavailableReplies;
import io.swale.task.SwaleException;
import io.swale.template.RenderException;
import io.swale.template.TemplateSyntaxException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.errors.RetriableException;
import redis.clients.jedis.exceptions.JedisBusyException;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * What a listener does with a failure, decided by what caused it (anywhere in the cause chain).
 *
 * <ul>
 *   <li>{@link #PERMANENT}: the record itself is wrong — no retry changes that: dead-lettered at once.
 *   <li>{@link #UNAVAILABLE}: Redis or Kafka did not answer (cannot connect, timeout, {@code LOADING},
 *       {@code BUSY}, a retriable Kafka error): the record is retried until they answer, never dead-lettered.
 *   <li>{@link #CATCHING_UP}: a {@link SwaleException.Transient} — state written elsewhere not seen yet, or a
 *       concurrent change: retried for a while, then dead-lettered, so a record whose state never comes does
 *       not stop its partition for good.
 *   <li>{@link #UNKNOWN}: anything else (a bug): retried briefly, then dead-lettered.
 * </ul>
 */
public enum ListenerFailure {
    PERMANENT, UNAVAILABLE, CATCHING_UP, UNKNOWN;

    /** The types that no retry can change (the error handler's not-retryable list). */
    static final List<Class<? extends Exception>> PERMANENT_TYPES = List.of(SwaleException.Permanent.class,
            RecordException.class, DefinitionParseException.class, InvalidDefinitionException.class,
            InvalidDurationException.class, InvalidPartitionException.class, InvalidCronException.class,
            TemplateSyntaxException.class, RenderException.class);

    private static final int MAX_DEPTH = 32;
    private static final List<String> CLUSTER_UNREACHABLE = List.of("No more cluster attempts left",
            "Cluster retry deadline exceeded", "No reachable node in cluster", "Could not initialize cluster slots cache");

    /** Classifies a failure: a permanent cause anywhere wins, then an unavailable one, then catching up. */
    public static ListenerFailure of(Throwable failure) {
        boolean unavailable = false;
        boolean catchingUp = false;
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = failure; t != null && seen.add(t) && seen.size() <= MAX_DEPTH; t = t.getCause()) {
            Throwable cause = t;
            if (PERMANENT_TYPES.stream().anyMatch(type -> type.isInstance(cause))) {
                return PERMANENT;
            }
            unavailable |= unavailable(t);
            catchingUp |= t instanceof SwaleException.Transient;
        }
        return unavailable ? UNAVAILABLE : catchingUp ? CATCHING_UP : UNKNOWN;
    }

    /** Whether Redis or Kafka did not answer, anywhere in the cause chain: the same call may succeed later. */
    public static boolean isOutage(Throwable failure) {
        return of(failure) == UNAVAILABLE;
    }

    private static boolean unavailable(Throwable t) {
        return switch (t) {
            case JedisConnectionException e -> true;
            case JedisBusyException e -> true;
            case JedisDataException e -> UnavailableReplies.matches(e.getMessage());
            // a Cluster client gave up on its attempts or found no node: the connection errors it met are attached as
            // suppressed, not as the cause, and a failover takes longer than its attempts
            case JedisClusterOperationException e -> CLUSTER_UNREACHABLE.stream()
                    .anyMatch(m -> String.valueOf(e.getMessage()).startsWith(m))
                    || java.util.Arrays.stream(e.getSuppressed()).anyMatch(ListenerFailure::unavailable);
            // the pool found no connection in time: every one is busy or Redis does not accept new ones
            case JedisException e -> String.valueOf(e.getMessage()).startsWith("Could not get a resource from the pool");
            case RetriableException e -> true;
            case java.util.concurrent.TimeoutException e -> true;
            case java.net.SocketTimeoutException e -> true;
            case java.net.ConnectException e -> true;
            default -> false;
        };
    }
}
