package io.swale.it;

import java.util.List;

/** Finds this machine's processes by a marker in their command line. */
final class Processes {
    private Processes() {}

    static List<ProcessHandle> withMarker(String marker) {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .toList();
    }

    /** A sleep of {@code seconds} plus a fraction unique to this call, so its process can be found. */
    static String uniqueSleep(int seconds) {
        return seconds + "." + (100_000 + (System.nanoTime() & 0x7ffff) % 900_000);
    }
}
