package io.swale.periodic;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;

import io.swale.settings.SwaleProperties;
import io.swale.task.DelayedMover;
import java.util.Map;
import java.util.Optional;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import org.junit.jupiter.api.Test;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.TriggerBuilder;
import org.quartz.spi.OperableTrigger;
import org.quartz.spi.TriggerFiredBundle;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.scheduling.quartz.SpringBeanJobFactory;

/** Quartz's Spring job factory builds the periodic jobs through their one constructor. */
class JobConstructionTest {

    @Test
    void theJobFactoryResolvesTheConstructor() throws Exception {
        DelayedMover mover = mock(DelayedMover.class);
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.registerBean(LockingTaskExecutor.class,
                    () -> new DefaultLockingTaskExecutor(lock -> Optional.of(() -> {})));
            context.registerBean(SwaleProperties.class, () -> new Binder(new MapConfigurationPropertySource(Map.of()))
                    .bindOrCreate("swale", SwaleProperties.class));
            context.registerBean(DelayedMover.class, () -> mover);
            context.refresh();
            SpringBeanJobFactory factory = new SpringBeanJobFactory();
            factory.setApplicationContext(context);

            JobDetail detail = JobBuilder.newJob(DelayedJob.class).withIdentity("delayed", "swale").build();
            OperableTrigger trigger = (OperableTrigger) TriggerBuilder.newTrigger().forJob(detail).build();
            Job job = factory.newJob(new TriggerFiredBundle(detail, trigger, null, false, null, null, null, null), null);

            job.execute(null);
            verify(mover).moveDue();
        }
    }
}
