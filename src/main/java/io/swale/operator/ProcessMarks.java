package io.swale.operator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Finds the processes of one program run, wherever they went: each program gets a mark of its own in its
 * environment, which every process it starts inherits, including one that a dying shell left to init (which
 * the walk of the process tree no longer finds). Read from {@code /proc}; where there is none (not Linux), no
 * process is found and the walk of the tree is all there is.
 */
final class ProcessMarks {
    /** The variable that carries the mark into a program's environment. */
    static final String VARIABLE = "SWALE_PROCESS_MARK";

    private static final Path PROC = Path.of("/proc");
    private static final AtomicLong NEXT = new AtomicLong();
    // the JVM's pid tells two workers on one host apart; the counter, the programs of one worker
    private static final String PREFIX = ProcessHandle.current().pid() + "-" + Long.toString(System.nanoTime(), 36) + "-";

    private ProcessMarks() {}

    /** A mark no other program of any worker on this host carries. */
    static String next() {
        return PREFIX + NEXT.incrementAndGet();
    }

    /** The live processes whose environment carries {@code mark}; a process that cannot be read is left out. */
    static List<ProcessHandle> find(String mark) {
        byte[] entry = ("\0" + VARIABLE + "=" + mark + "\0").getBytes(StandardCharsets.UTF_8);
        List<ProcessHandle> out = new ArrayList<>();
        if (!Files.isDirectory(PROC)) {
            return out;
        }
        try (DirectoryStream<Path> all = Files.newDirectoryStream(PROC, ProcessMarks::isPid)) {
            for (Path dir : all) {
                if (carries(dir.resolve("environ"), entry)) {
                    ProcessHandle.of(Long.parseLong(dir.getFileName().toString())).ifPresent(out::add);
                }
            }
        } catch (IOException | RuntimeException e) {
            // /proc unreadable: only the walk of the tree is left
        }
        return out;
    }

    private static boolean isPid(Path p) {
        String name = p.getFileName().toString();
        return !name.isEmpty() && name.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    /** Whether the NUL-separated {@code environ} holds {@code entry} (NUL-framed, so only a whole variable counts). */
    private static boolean carries(Path environ, byte[] entry) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(environ);
        } catch (IOException | SecurityException e) {
            // gone, or another user's
            return false;
        }
        // the first variable has no NUL before it: compare from the entry's second byte there
        if (startsWith(bytes, 0, entry, 1)) {
            return true;
        }
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0 && startsWith(bytes, i, entry, 0)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code bytes} from {@code at} holds {@code entry} from {@code from}; the last NUL may be its end. */
    private static boolean startsWith(byte[] bytes, int at, byte[] entry, int from) {
        int n = entry.length - from;
        for (int k = 0; k < n; k++) {
            int i = at + k;
            byte want = entry[from + k];
            if (i == bytes.length) {
                // environ may end without a NUL after its last variable
                return k == n - 1 && want == 0;
            }
            if (bytes[i] != want) {
                return false;
            }
        }
        return true;
    }
}
