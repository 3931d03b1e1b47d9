package io.swale.periodic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.swale.run.Adoption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;

/** Every pass asked for now takes the replicas' `sync` lock, and waits for a pass that holds it elsewhere. */
class SyncServiceTest {
    private final Adoption adoption = mock(Adoption.class);
    private final Adoption.Report report = new Adoption.Report(List.of("g"), Map.of());
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final AtomicInteger heldElsewhereFor = new AtomicInteger();
    private final AtomicInteger passesUnderLock = new AtomicInteger();
    private final AtomicInteger held = new AtomicInteger();

    /** A lock store where another replica holds the lock for the first {@link #heldElsewhereFor} asks. */
    private final LockProvider provider = (LockConfiguration c) -> {
        asked.add(c.getName());
        if (asked.size() <= heldElsewhereFor.get()) {
            return Optional.empty();
        }
        held.incrementAndGet();
        return Optional.of((SimpleLock) held::decrementAndGet);
    };

    private SyncService service(Duration wait) {
        when(adoption.sync()).thenAnswer(i -> {
            if (held.get() == 1) {
                passesUnderLock.incrementAndGet();
            }
            return report;
        });
        return new SyncService(adoption, new DefaultLockingTaskExecutor(provider), Optional.empty(), wait);
    }

    @Test
    void aPassRunsUnderTheLockOnceAPassElsewhereReleasedIt() {
        heldElsewhereFor.set(3);
        SyncService sync = service(Duration.ofSeconds(5));

        assertThat(sync.sync()).contains(report);
        assertThat(asked).containsExactly("sync", "sync", "sync", "sync");
        assertThat(passesUnderLock).hasValue(1);
        assertThat(held).as("released").hasValue(0);
    }

    @Test
    void aPassStillHeldElsewhereAfterTheWaitIsLeftToIt() {
        heldElsewhereFor.set(Integer.MAX_VALUE);
        SyncService sync = service(Duration.ofMillis(150));

        assertThat(sync.sync()).isEmpty();
        assertThat(asked).hasSize(3);
        verify(adoption, never()).sync();
    }

    @Test
    void thePeriodicJobsPassRunsInTheLockItHolds() {
        SyncService sync = service(Duration.ofSeconds(5));
        assertThat(sync.pass()).isEqualTo(report);
        assertThat(asked).as("the job took the lock").isEmpty();
        verify(adoption, times(1)).sync();
    }
}
