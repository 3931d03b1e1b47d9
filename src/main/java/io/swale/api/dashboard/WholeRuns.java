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
 * The runs that the dashboard's lists show (the running list, the live stream, the grid, the durations and the
 * assets pages), each read whole as far as the view looks: a run whose record, or one of whose instances or node
 * records, does not decode (a corrupt write, a newer release's state during an upgrade) is left out with a warning,
 * as the run list and the pools' view leave it out (spec §5.1: listings log and skip). It failed the whole page, for
 * every run of it; its own page names the fault.
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
