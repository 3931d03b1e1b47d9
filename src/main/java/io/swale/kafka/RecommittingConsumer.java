package io.swale.kafka;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
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
 * A dynamic proxy, since the consumer interface has some fifty methods and three of them matter here; every
 * call runs on the listener's consumer thread, as the consumer requires.
 */
final class RecommittingConsumer implements InvocationHandler {
    private static final Logger log = LoggerFactory.getLogger(RecommittingConsumer.class);

    private final Consumer<?, ?> delegate;
    /** The offset last sent for each partition. */
    private final Map<TopicPartition, Long> lastSent = new HashMap<>();
    /** Failed commits not superseded yet, to send again at the next poll. */
    private final Map<TopicPartition, OffsetAndMetadata> failed = new HashMap<>();

    private RecommittingConsumer(Consumer<?, ?> delegate) {
        this.delegate = delegate;
    }

    @SuppressWarnings("unchecked")
    static <K, V> Consumer<K, V> wrap(Consumer<K, V> consumer) {
        return (Consumer<K, V>) Proxy.newProxyInstance(RecommittingConsumer.class.getClassLoader(),
                new Class<?>[] {Consumer.class}, new RecommittingConsumer(consumer));
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
        }
        Object result = call(method, args);
        if (name.equals("commitSync") && args != null && args.length > 0 && args[0] instanceof Map<?, ?> offsets) {
            supersede(((Map<TopicPartition, OffsetAndMetadata>) offsets));
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
        });
    }

    private void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        Map<TopicPartition, OffsetAndMetadata> sent = Map.copyOf(offsets);
        supersede(sent);
        delegate.commitAsync(sent, (done, e) -> {
            if (e != null) {
                remember(sent);
            }
            if (callback != null) {
                callback.onComplete(done, e);
            }
        });
    }

    /** A failed commit is kept for each partition with no later commit sent since. */
    private synchronized void remember(Map<TopicPartition, OffsetAndMetadata> sent) {
        sent.forEach((tp, offset) -> {
            if (lastSent.getOrDefault(tp, -1L) == offset.offset()) {
                failed.put(tp, offset);
            }
        });
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
