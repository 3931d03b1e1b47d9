package io.swale.store.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Group commit of one kind of call: the calls that arrive while a batch is at Redis wait for it, then go
 * together in the next one, sent by one of them (a pipeline, each request still its own atomic script). A
 * call that finds Redis idle goes at once, alone, so nothing waits when there is nothing to share; each
 * caller leads at most one batch, the one that carries its own request. Every caller gets its own outcome or
 * failure, thrown on its own thread as if it had called alone.
 *
 * <p>A batch's end wakes its own callers and the first one queued behind it, who sends the next batch; the
 * rest stay asleep until their batch is back. Waking every waiter at each batch's end (one condition for all)
 * cost each queued caller a second wake-up for nothing: about 0.7 context switches per task instance of the
 * bench's {@code runs} (docs/performance.md, "Context switches per task instance").
 */
final class GroupCommit<R, T> {
    private final Function<R, T> alone;
    private final Function<List<R>, List<Supplier<T>>> together;
    private final ReentrantLock lock = new ReentrantLock();
    private final List<Pending<R, T>> queue = new ArrayList<>();
    private boolean sending;
    private long idleWakeUps;

    /**
     * {@code alone} sends one request; {@code together} sends several in one round trip and gives, in their
     * order, each one's outcome (a supplier that returns it, or throws that request's own failure).
     */
    GroupCommit(Function<R, T> alone, Function<List<R>, List<Supplier<T>>> together) {
        this.alone = alone;
        this.together = together;
    }

    /** Calls waiting for the batch at Redis to come back (for tests). */
    int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    /** Times a waiting caller was woken with nothing to do: neither its batch back nor its turn to send (for tests). */
    long idleWakeUps() {
        lock.lock();
        try {
            return idleWakeUps;
        } finally {
            lock.unlock();
        }
    }

    T call(R request) {
        Pending<R, T> mine = new Pending<>(request, lock.newCondition());
        List<Pending<R, T>> batch;
        lock.lock();
        try {
            queue.add(mine);
            // the first one queued sends the next batch, with everyone queued behind it
            for (boolean woken = false; !mine.finished && (sending || queue.getFirst() != mine); woken = true) {
                if (woken) {
                    idleWakeUps++;
                }
                mine.woken.awaitUninterruptibly();
            }
            if (mine.finished) {
                return mine.outcome.get();
            }
            sending = true;
            batch = new ArrayList<>(queue);
            queue.clear();
        } finally {
            lock.unlock();
        }
        try {
            send(batch);
        } finally {
            lock.lock();
            try {
                for (Pending<R, T> p : batch) {
                    p.finished = true;
                    p.woken.signal();
                }
                sending = false;
                if (!queue.isEmpty()) {
                    queue.getFirst().woken.signal();
                }
            } finally {
                lock.unlock();
            }
        }
        return mine.outcome.get();
    }

    private void send(List<Pending<R, T>> batch) {
        try {
            if (batch.size() == 1) {
                T out = alone.apply(batch.getFirst().request);
                batch.getFirst().outcome = () -> out;
                return;
            }
            List<Supplier<T>> out = together.apply(batch.stream().map(p -> p.request).toList());
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).outcome = out.get(i);
            }
        } catch (RuntimeException e) {
            // the round trip itself failed (Redis unreachable, too few replicas): every request of it did
            batch.forEach(p -> p.outcome = () -> {
                throw e;
            });
        } catch (Error e) {
            IllegalStateException failed = new IllegalStateException("batch of " + batch.size() + " failed: " + e, e);
            batch.forEach(p -> p.outcome = () -> {
                throw failed;
            });
            throw e;
        }
    }

    private static final class Pending<R, T> {
        final R request;
        final Condition woken;
        // written by the sender before `finished`, under the lock; read after it
        Supplier<T> outcome;
        boolean finished;

        Pending(R request, Condition woken) {
            this.request = request;
            this.woken = woken;
        }
    }
}
