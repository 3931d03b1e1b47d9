package io.swale.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The dispatch a lease waiter gets again: what is encoded decodes to the same pool and identity. */
class LeaseWaiterTest {
    @Test
    void roundTrips() {
        LeaseWaiter task = new LeaseWaiter("gpu", new TaskIdentity("g", Partition.of("20240102"), "n",
                Optional.empty(), "abc123", 3));
        LeaseWaiter asset = new LeaseWaiter("default", new TaskIdentity("g", Partition.of("p"), "n",
                Optional.of("g_asset"), "abc123", 0));
        assertThat(LeaseWaiter.decode(task.encode())).contains(task);
        assertThat(LeaseWaiter.decode(asset.encode())).contains(asset);
    }

    @Test
    void somethingElseDecodesToNothing() {
        assertThat(LeaseWaiter.decode("")).isEmpty();
        assertThat(LeaseWaiter.decode("a\nb")).isEmpty();
        assertThat(LeaseWaiter.decode("pool\ng\np\nn\ndef\nnot-a-number\n")).isEmpty();
    }
}
