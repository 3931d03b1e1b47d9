package io.swale.periodic;

import io.swale.settings.SwaleProperties;
import java.time.Duration;
import java.util.Date;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The periodic jobs on Quartz's in-memory store. Quartz only paces them: the reconciler's first pass runs
 * one interval after start, as the spec asks.
 */
@Configuration(proxyBeanMethods = false)
public class JobSchedule {

    @Bean
    JobDetail reconcileJob() {
        return job(ReconcileJob.class, "reconcile");
    }

    @Bean
    Trigger reconcileTrigger(JobDetail reconcileJob, SwaleProperties props) {
        return every(reconcileJob, props.scheduler().reconcileInterval(), props.scheduler().reconcileInterval());
    }

    @Bean
    JobDetail syncJob() {
        return job(SyncJob.class, "sync");
    }

    @Bean
    Trigger syncTrigger(JobDetail syncJob, SwaleProperties props) {
        return every(syncJob, props.scheduler().syncInterval(), props.scheduler().syncInterval());
    }

    @Bean
    JobDetail delayedJob() {
        return job(DelayedJob.class, "delayed");
    }

    @Bean
    Trigger delayedTrigger(JobDetail delayedJob, SwaleProperties props) {
        return every(delayedJob, props.scheduler().delayedPoll(), props.scheduler().delayedPoll());
    }

    @Bean
    JobDetail cronPumpJob() {
        return job(CronPumpJob.class, "cron-pump");
    }

    @Bean
    Trigger cronPumpTrigger(JobDetail cronPumpJob, SwaleProperties props) {
        return every(cronPumpJob, props.scheduler().cronTick(), props.scheduler().cronTick());
    }

    @Bean
    JobDetail retentionJob() {
        return job(RetentionJob.class, "retention");
    }

    /** A first pass at start-up, then one per retention interval. */
    @Bean
    Trigger retentionTrigger(JobDetail retentionJob, SwaleProperties props) {
        return every(retentionJob, props.scheduler().retentionInterval(), Duration.ZERO);
    }

    @Bean
    JobDetail reapJob() {
        return job(ReapJob.class, "reap");
    }

    @Bean
    Trigger reapTrigger(JobDetail reapJob, SwaleProperties props) {
        return every(reapJob, props.scheduler().reapInterval(), props.scheduler().reapInterval());
    }

    private static JobDetail job(Class<? extends Job> type, String name) {
        return JobBuilder.newJob(type).withIdentity(name, "swale").storeDurably().build();
    }

    private static Trigger every(JobDetail job, Duration interval, Duration firstAfter) {
        return TriggerBuilder.newTrigger().forJob(job).withIdentity(job.getKey().getName(), "swale")
                .startAt(new Date(System.currentTimeMillis() + firstAfter.toMillis()))
                .withSchedule(SimpleScheduleBuilder.simpleSchedule()
                        .withIntervalInMilliseconds(Math.max(1, interval.toMillis()))
                        .repeatForever()
                        .withMisfireHandlingInstructionNextWithRemainingCount())
                .build();
    }
}
