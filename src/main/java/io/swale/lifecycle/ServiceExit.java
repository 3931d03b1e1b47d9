package io.swale.lifecycle;

import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.BindException;
import sun.misc.Signal;

/**
 * The service's exit codes (spec §13, interfaces §4): 0 when it is stopped by SIGINT or SIGTERM (an interrupted
 * daemon succeeded), 2 when a setting fails as it is bound, 1 when the start fails otherwise. The JVM's own handlers
 * exit 130 and 143 on those signals, which a supervisor (systemd, a container runtime) reads as a failure.
 */
public final class ServiceExit {
    /** A bad setting, named in the start's failure report. */
    public static final int BAD_SETTING = 2;
    public static final int START_FAILED = 1;

    private ServiceExit() {}

    /** SIGINT and SIGTERM stop the service as the JVM's handlers do (its shutdown hooks close it), with code 0. */
    public static void stopsWithZeroOnSignals() {
        for (String name : List.of("INT", "TERM")) {
            try {
                Signal.handle(new Signal(name), signal -> System.exit(0));
            } catch (IllegalArgumentException reservedByTheJvm) {
                // under -Xrs the JVM leaves these signals to the OS: the process then ends as the OS ends it
            }
        }
    }

    /** The code of a start that failed with {@code failure}: Spring has reported why already. */
    public static int codeOf(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof BindException) {
                return BAD_SETTING;
            }
        }
        return START_FAILED;
    }

    /** Runs the service's start; a failed start exits with {@link #codeOf} its failure. */
    public static void run(Runnable start) {
        try {
            start.run();
        } catch (SpringApplication.AbandonedRunException e) {
            // the build's AOT step and other tools stop a run on purpose this way: theirs to handle
            throw e;
        } catch (RuntimeException | Error e) {
            System.exit(codeOf(e));
        }
    }
}
