package io.swale.periodic;

import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.swale.local.DefinitionDirectory;
import io.swale.run.Adoption;
import io.swale.run.DefinitionCatalog;
import io.swale.settings.SwaleProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * One sync pass: publish the local definitions folder (if any), then adopt changed pointers. Every replica's
 * passes take one Redis lock: a pass reads the adopted graphs once and checks each pending one against them
 * (spec §4.5), so two passes at once on two replicas could each adopt a graph producing the other's asset.
 */
@Component
public class SyncService {
    static final String LOCK = "sync";
    static final Duration LOCK_AT_MOST_FOR = Duration.ofMinutes(2);
    /** How long a pass asked for now waits for one running elsewhere: a pass takes milliseconds. */
    static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration WAIT_STEP = Duration.ofMillis(50);

    private final Adoption adoption;
    private final LockingTaskExecutor locks;
    private final Optional<DefinitionDirectory> directory;
    private final Retry untilLocked;

    @Autowired
    public SyncService(Adoption adoption, DefinitionCatalog catalog, LockingTaskExecutor locks, SwaleProperties props) {
        this(adoption, locks, props.examples().isBlank() ? Optional.empty()
                : Optional.of(new DefinitionDirectory(Path.of(props.examples()), catalog)), WAIT);
    }

    SyncService(Adoption adoption, LockingTaskExecutor locks, Optional<DefinitionDirectory> directory, Duration wait) {
        this.adoption = adoption;
        this.locks = locks;
        this.directory = directory;
        this.untilLocked = Retry.of("sync-lock", RetryConfig.<Optional<Adoption.Report>>custom()
                .maxAttempts((int) Math.max(1, wait.toMillis() / WAIT_STEP.toMillis()))
                .waitDuration(WAIT_STEP)
                .retryOnResult(Optional::isEmpty)
                .retryOnException(e -> false)
                .build());
    }

    /** A pass by a caller that holds the {@value #LOCK} lock (the periodic job). */
    public Adoption.Report pass() {
        directory.ifPresent(DefinitionDirectory::publishAll);
        return adoption.sync();
    }

    /**
     * A pass now, under the {@value #LOCK} lock, waiting up to {@link #WAIT} for a pass running elsewhere; empty
     * when that one still holds it. What changed is then adopted by that pass if it read the pointers after the
     * change, else by the next periodic pass (swale.scheduler.sync-interval).
     */
    public Optional<Adoption.Report> sync() {
        return untilLocked.executeSupplier(() -> SingletonJob.underLock(locks, LOCK, LOCK_AT_MOST_FOR, this::pass));
    }
}
