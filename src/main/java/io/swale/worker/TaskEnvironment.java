package io.swale.worker;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The environment a task sees (spec §8.4: the worker's) and its templates read as {@code env.NAME}, without the
 * service's own credentials: the admin token, and the Redis and Kafka passwords that the chart puts in every
 * pod's environment. A program a task runs, or an output that renders {@code {{ env.X }}} into a node record
 * anyone may read, must not reach them. Left out: every {@code SWALE_*} or {@code SPRING_*} variable whose name
 * holds {@code PASSWORD}, {@code TOKEN}, {@code SECRET} or {@code JAAS}; a task's own secrets go under other names.
 */
public final class TaskEnvironment {
    private static final Pattern OWN_CREDENTIAL = Pattern.compile("(SWALE|SPRING)_.*(PASSWORD|TOKEN|SECRET|JAAS).*");

    private TaskEnvironment() {}

    public static Map<String, String> of(Map<String, String> worker) {
        return worker.entrySet().stream().filter(e -> !isOwnCredential(e.getKey()))
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    static boolean isOwnCredential(String name) {
        return OWN_CREDENTIAL.matcher(name.toUpperCase(Locale.ROOT)).matches();
    }
}
