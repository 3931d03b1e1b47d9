package io.swale.api.dashboard;

import io.swale.record.RecordException;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active runs that the running list and the live stream show, each read whole as far as the view looks: a run
 * whose record, or one of whose instances (or, for the live stream, node records), does not decode (a corrupt write,
 * a newer release's state during an upgrade) is left out with a warning, as the run list and the pools' view leave it
 * out. It failed the running list for every pool and every tick of the stream. (The grid shows such a run, with the
 * fault in its cell; its own page names it.)
 */
final class WholeRuns {
    private static final Logger log = LoggerFactory.getLogger(WholeRuns.class);

    private WholeRuns() {
    }

    /** With their instances decoded: the running list looks at no node record. */
    static List<RunView> withInstances(RunStore runs, List<RunKey> keys) {
        return read(runs, keys, false);
    }

    /** With their instances and node records decoded: the live stream's fingerprints look at both. */
    static List<RunView> whole(RunStore runs, List<RunKey> keys) {
        return read(runs, keys, true);
    }

    private static List<RunView> read(RunStore runs, List<RunKey> keys, boolean records) {
        List<RunView> whole = new ArrayList<>(keys.size());
        for (RunStore.Read read : runs.readEach(keys)) {
            switch (read) {
                case RunStore.Read.Found(RunView view) -> {
                    try {
                        // decoded now, once, so that none fails later
                        view.instances().entrySet();
                        if (records) {
                            view.nodeRecords().entrySet();
                        }
                        whole.add(view);
                    } catch (RecordException e) {
                        unreadable(view.key(), e.getMessage());
                    }
                }
                case RunStore.Read.Unreadable(RunKey key, String error) -> unreadable(key, error);
            }
        }
        return whole;
    }

    private static void unreadable(RunKey key, String error) {
        log.warn("run left out of the dashboard, unreadable graph={} partition={} error={}", key.graph(),
                key.partition().key(), error);
    }
}
