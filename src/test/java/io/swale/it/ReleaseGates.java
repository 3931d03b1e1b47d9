package io.swale.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Files that a test's shell tasks wait for before they end. Every gate a test made is opened after it, whatever
 * its outcome: a task left waiting would hold its pool's slot in the shared application context, and the tests
 * after a failed one would time out for want of a slot rather than fail for their own reasons.
 *
 * <p>The files live in a directory of their own, deleted only when the JVM exits: in a test's {@code @TempDir}, an
 * opened gate was deleted with the directory before the waiting task's next poll could see it, and the task waited on.
 */
final class ReleaseGates implements AfterEachCallback {
    private final List<Gate> made = new ArrayList<>();
    private Path root;
    private long count;

    /** A closed gate, unique to this call; the test opens it, and it is opened after the test in any case. */
    synchronized Gate gate(String name) {
        try {
            if (root == null) {
                root = Files.createTempDirectory("swale-release-gates-");
                root.toFile().deleteOnExit();
            }
            Gate gate = new Gate(root.resolve(name + "-" + ++count));
            // registered after the directory, so deleted before it
            gate.file().toFile().deleteOnExit();
            made.add(gate);
            return gate;
        } catch (IOException e) {
            throw new UncheckedIOException("could not make a gate's directory", e);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<Gate> open;
        synchronized (this) {
            open = List.copyOf(made);
            made.clear();
        }
        UncheckedIOException first = null;
        for (Gate gate : open) {
            try {
                gate.open();
            } catch (UncheckedIOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** One file a shell task polls for. */
    record Gate(Path file) {
        /** A shell loop that ends once the gate is open. */
        String awaitCommand() {
            return "until test -e '" + file + "'; do sleep 0.05; done";
        }

        /** Opens the gate; opening an open gate changes nothing. */
        void open() {
            try {
                Files.writeString(file, "go");
            } catch (IOException e) {
                throw new UncheckedIOException("could not open the gate " + file, e);
            }
        }
    }
}
