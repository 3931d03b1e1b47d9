package io.swale.operator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A program started in a process group of its own ({@code setsid}, where it exists), so that whatever it leaves
 * running can be found and killed: a background job ({@code cmd &}) is re-parented to init when its shell exits
 * and leaves the shell's process tree, but keeps its process group. Members are read from Linux's
 * {@code /proc}; elsewhere there is no group and only the tree is killed.
 */
final class ProcessGroups {
    private static final Optional<Path> SETSID = Stream.of("/usr/bin/setsid", "/bin/setsid").map(Path::of)
            .filter(Files::isExecutable).findFirst().filter(p -> Files.isDirectory(Path.of("/proc/self")));

    private ProcessGroups() {}

    /**
     * {@code command} to run as the leader of a new process group, when this system allows it. Its program is found
     * on this process's PATH first, as the JDK finds a program it starts: {@code setsid} would search the child's,
     * which a node's {@code env} may set. A program not found is left to the JDK, whose error names it.
     */
    static Optional<List<String>> inOwnGroup(List<String> command) {
        return SETSID.flatMap(setsid -> onPath(command.getFirst()).map(program -> {
            List<String> wrapped = new ArrayList<>(command.size() + 1);
            wrapped.add(setsid.toString());
            wrapped.add(program.toString());
            wrapped.addAll(command.subList(1, command.size()));
            return List.copyOf(wrapped);
        }));
    }

    private static Optional<Path> onPath(String program) {
        if (program.contains("/")) {
            return Optional.of(Path.of(program));
        }
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Stream.of(path.split(":")).filter(d -> !d.isEmpty()).map(d -> Path.of(d, program))
                .filter(Files::isExecutable).findFirst();
    }

    /** Kills every process of group {@code pgid} (a leader's pid); answers how many it found. */
    static int kill(long pgid) {
        List<ProcessHandle> members = members(pgid);
        members.forEach(ProcessHandle::destroyForcibly);
        return members.size();
    }

    static List<ProcessHandle> members(long pgid) {
        List<ProcessHandle> out = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            entries.map(p -> p.getFileName().toString()).filter(ProcessGroups::isPid).forEach(pid -> {
                if (groupOf(pid) == pgid) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(out::add);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // no /proc: nothing found, the tree walk is all there is
        }
        return out;
    }

    private static boolean isPid(String name) {
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }

    /** The fifth field of /proc/<pid>/stat, after the command name in parentheses (which may hold spaces); -1 if gone. */
    private static long groupOf(String pid) {
        try {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[2]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
