package io.swale.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM handled by this command instead of the JVM's shutdown: the JVM's own handler
 * would start every shutdown hook at once, and nothing would cancel the run or close the application (it
 * registers no shutdown hook of its own), so the embedded broker would stop only at its hooks' limit. The
 * handler gets the exit code a shell expects (128 + the signal's number) and is expected to call
 * {@link System#exit} when it is done.
 */
final class Interrupts implements AutoCloseable {
    private record Installed(Signal signal, SignalHandler previous) {}

    private final List<Installed> installed = new ArrayList<>();

    private Interrupts() {}

    static Interrupts install(IntConsumer handler) {
        Interrupts i = new Interrupts();
        for (String name : List.of("INT", "TERM")) {
            Signal signal = new Signal(name);
            try {
                SignalHandler previous = Signal.handle(signal, s -> handler.accept(128 + s.getNumber()));
                i.installed.add(new Installed(signal, previous));
            } catch (IllegalArgumentException ignoredByTheOs) {
                // a signal ignored when the JVM started (a background job) stays ignored: nothing to handle
            }
        }
        return i;
    }

    /** Gives the signals back to the JVM's shutdown. */
    @Override
    public void close() {
        installed.forEach(i -> Signal.handle(i.signal(), i.previous()));
        installed.clear();
    }
}
