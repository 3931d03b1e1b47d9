package io.swale.worker;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The environment a task sees (spec §8.4: the worker's) and its templates read as {@code env.NAME}, without the
 * service's own credentials: the admin token, and the Redis and Kafka passwords that the chart puts in every
 * pod's environment. A program a task runs, or an output that renders {@code {{ env.X }}} into a node record
 * anyone may read, must not reach them. Left out: every {@code SWALE_*} or {@code SPRING_*} variable whose name
 * holds {@code PASSWORD}, {@code TOKEN}, {@code SECRET} or {@code JAAS}; and every variable whose value holds one
 * of the service's secret values, whatever its name (a Redis URL with its password that the configuration reads
 * from {@code REDIS_URL}). A task's own secrets go under other names.
 */
public final class TaskEnvironment {
    private static final Pattern OWN_CREDENTIAL = Pattern.compile("(SWALE|SPRING)_.*(PASSWORD|TOKEN|SECRET|JAAS).*");
    /** A secret shorter than this would be found inside unrelated values: only a value equal to it is left out. */
    static final int SHORTEST_CONTAINED = 8;

    private TaskEnvironment() {}

    public static Map<String, String> of(Map<String, String> worker) {
        return of(worker, List.of());
    }

    /** The task environment of {@code worker}'s, {@code secrets} being the service's secret values. */
    public static Map<String, String> of(Map<String, String> worker, Collection<String> secrets) {
        return worker.entrySet().stream()
                .filter(e -> !isOwnCredential(e.getKey()) && !holdsSecret(e.getValue(), secrets))
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    static boolean isOwnCredential(String name) {
        return OWN_CREDENTIAL.matcher(name.toUpperCase(Locale.ROOT)).matches();
    }

    private static boolean holdsSecret(String value, Collection<String> secrets) {
        for (String secret : secrets) {
            if (!secret.isEmpty() && (value.equals(secret)
                    || (secret.length() >= SHORTEST_CONTAINED && value.contains(secret)))) {
                return true;
            }
        }
        return false;
    }
}
