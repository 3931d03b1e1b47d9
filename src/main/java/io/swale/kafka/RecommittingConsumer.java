package io.swale.kafka;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listener's consumer that sends a failed asynchronous commit again. A commit sent while the group rebalances
 * fails, and with the cooperative assignor the member keeps its partitions and its positions, so nothing else
 * would commit those offsets before the next record of the partition: an idle partition would keep a stale
 * offset (its records handled again after the next assignment, its lag never drained). spring-kafka only
 * retries synchronous commits; the asynchronous ones stay asynchronous on the hot path, and their failures are
 * sent again here at the next poll, once more each poll until they go through.
 *
 * <p>Only an offset the listener itself asked to commit is sent again, only while no later commit of its
 * partition was sent, and only while the partition is still assigned: never an offset past a record not handled.
 * A dynamic proxy, since the consumer interface has some fifty methods and four of them matter here; every
 * call runs on the listener's consumer thread, as the consumer requires.
 *
 * <p>{@linkplain #coalescing Coalescing}, it also keeps at most one of its commits in flight: offsets asked
 * for meanwhile are merged (the highest per partition) and sent as one commit when it returns. The broker
 * answers one commit of a connection at a time, each after its write to the offsets topic (several ms); a
 * listener that commits once per small poll asks for more than that, and the consumer queues every commit
 * unsent, without bound, so the committed offsets fall further behind the longer the load lasts.
 */
final class RecommittingConsumer implements InvocationHandler {
    private static final Logger log = LoggerFactory.getLogger(RecommittingConsumer.class);
    /** How long an unsubscribe or a close waits for the commit of what is still queued or to be sent again. */
    static final Duration CLOSE_COMMIT_WAIT = Duration.ofSeconds(2);

    private final Consumer<?, ?> delegate;
    private final boolean coalesce;
    /** The offset last sent for each partition. */
    private final Map<TopicPartition, Long> lastSent = new HashMap<>();
    /** Failed commits not superseded yet, to send again at the next poll. */
    private final Map<TopicPartition, OffsetAndMetadata> failed = new HashMap<>();
    /** Coalescing: offsets asked for while a commit was in flight, and their callbacks. */
    private final Map<TopicPartition, OffsetAndMetadata> queued = new HashMap<>();
    private final List<OffsetCommitCallback> queuedCallbacks = new ArrayList<>();
    /** Commits this proxy sent whose callback has not run yet. */
    private int inFlight;

    private RecommittingConsumer(Consumer<?, ?> delegate, boolean coalesce) {
        this.delegate = delegate;
        this.coalesce = coalesce;
    }

    static <K, V> Consumer<K, V> wrap(Consumer<K, V> consumer) {
        return proxy(consumer, false);
    }

    /** As {@link #wrap}, with at most one commit in flight; for a listener that commits once per poll. */
    static <K, V> Consumer<K, V> coalescing(Consumer<K, V> consumer) {
        return proxy(consumer, true);
    }

    @SuppressWarnings("unchecked")
    private static <K, V> Consumer<K, V> proxy(Consumer<K, V> consumer, boolean coalesce) {
        return (Consumer<K, V>) Proxy.newProxyInstance(RecommittingConsumer.class.getClassLoader(),
                new Class<?>[] {Consumer.class}, new RecommittingConsumer(consumer, coalesce));
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        if (name.equals("commitAsync") && args != null && args.length == 2 && args[0] instanceof Map<?, ?> offsets) {
            commitAsync((Map<TopicPartition, OffsetAndMetadata>) offsets, (OffsetCommitCallback) args[1]);
            return null;
        }
        if (name.equals("poll")) {
            sendFailedAgain();
            sendQueued();
        }
        // spring-kafka's container unsubscribes before it closes: the assignment is empty by close
        if (name.equals("unsubscribe") || name.equals("close")) {
            commitPendingBeforeLeaving();
        }
        Object result = call(method, args);
        if (name.equals("commitSync") && args != null && args.length > 0 && args[0] instanceof Map<?, ?> offsets) {
            supersede(((Map<TopicPartition, OffsetAndMetadata>) offsets));
        }
        if (name.equals("poll")) {
            sendQueued();
        }
        return result;
    }

    private Object call(Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(delegate, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private synchronized void supersede(Map<TopicPartition, OffsetAndMetadata> offsets) {
        offsets.forEach((tp, offset) -> {
            lastSent.put(tp, offset.offset());
            failed.remove(tp);
            OffsetAndMetadata waiting = queued.get(tp);
            if (waiting != null && waiting.offset() <= offset.offset()) {
                queued.remove(tp);
            }
        });
    }

    private void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        synchronized (this) {
            if (coalesce && inFlight > 0) {
                offsets.forEach((tp, offset) -> queued.merge(tp, offset, (a, b) -> a.offset() >= b.offset() ? a : b));
                if (callback != null) {
                    queuedCallbacks.add(callback);
                }
                return;
            }
        }
        send(Map.copyOf(offsets), callback == null ? List.of() : List.of(callback));
    }

    private void send(Map<TopicPartition, OffsetAndMetadata> sent, List<OffsetCommitCallback> callbacks) {
        synchronized (this) {
            supersede(sent);
            inFlight++;
        }
        try {
            delegate.commitAsync(sent, (done, e) -> {
                synchronized (this) {
                    inFlight--;
                    if (e != null) {
                        remember(sent);
                    }
                }
                callbacks.forEach(c -> c.onComplete(done, e));
                // called back on the consumer thread (within a poll or a commit): what queued meanwhile goes now
                sendQueued();
            });
        } catch (RuntimeException e) {
            // never called back: a commit counted in flight for good would hold every later one in the queue
            synchronized (this) {
                inFlight--;
            }
            throw e;
        }
    }

    /** A failed commit is kept for each partition with no later commit sent since. */
    private synchronized void remember(Map<TopicPartition, OffsetAndMetadata> sent) {
        sent.forEach((tp, offset) -> {
            if (lastSent.getOrDefault(tp, -1L) == offset.offset()) {
                failed.put(tp, offset);
            }
        });
    }

    /** Coalescing: sends what queued once nothing is in flight, for the partitions still assigned. */
    private void sendQueued() {
        Map<TopicPartition, OffsetAndMetadata> next;
        List<OffsetCommitCallback> callbacks;
        synchronized (this) {
            if (inFlight > 0 || queued.isEmpty()) {
                return;
            }
            callbacks = List.copyOf(queuedCallbacks);
            next = takeQueued();
        }
        if (!next.isEmpty()) {
            send(next, callbacks);
        }
    }

    /** Empties the queue; gives what it held for the partitions still assigned. Called holding the lock. */
    private Map<TopicPartition, OffsetAndMetadata> takeQueued() {
        Map<TopicPartition, OffsetAndMetadata> taken = new HashMap<>(queued);
        taken.keySet().retainAll(delegate.assignment());
        queued.clear();
        queuedCallbacks.clear();
        return Map.copyOf(taken);
    }

    /**
     * What is still queued (coalescing) or waits to be sent again after a failure is committed before the consumer
     * unsubscribes or closes, waiting at most {@link #CLOSE_COMMIT_WAIT}, for the partitions still assigned: an
     * asynchronous commit sent right before close was found not to reach the broker, and a container stops by
     * unsubscribing first, which empties the assignment (CoalescingCommitIT). Left uncommitted, those records would
     * only come again to the next owner, whose claims refuse them.
     */
    private void commitPendingBeforeLeaving() {
        Map<TopicPartition, OffsetAndMetadata> last;
        synchronized (this) {
            if (queued.isEmpty() && failed.isEmpty()) {
                return;
            }
            failed.forEach((tp, offset) -> queued.merge(tp, offset, (a, b) -> a.offset() >= b.offset() ? a : b));
            failed.clear();
            last = takeQueued();
        }
        if (last.isEmpty()) {
            return;
        }
        try {
            delegate.commitSync(last, CLOSE_COMMIT_WAIT);
            supersede(last);
        } catch (RuntimeException e) {
            log.debug("commit before leaving failed, those records come again to the next owner {}: {}", last,
                    e.toString());
        }
    }

    private void sendFailedAgain() {
        Map<TopicPartition, OffsetAndMetadata> again;
        synchronized (this) {
            if (failed.isEmpty()) {
                return;
            }
            Set<TopicPartition> assigned = delegate.assignment();
            again = new HashMap<>(failed);
            again.keySet().retainAll(assigned);
            failed.clear();
        }
        if (!again.isEmpty()) {
            log.debug("sending a failed commit again {}", again);
            commitAsync(again, (offsets, e) -> {
                if (e != null) {
                    log.debug("commit failed again, to be sent at the next poll {}: {}", offsets, e.toString());
                }
            });
        }
    }
}
