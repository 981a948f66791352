package io.eccache.benchmarks.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Processor sharing against completion times worked out by hand; links of 100 bytes/s. */
class ProcessorSharingNetworkTest {
  private static final double EPS = 1e-9;

  private final ProcessorSharingNetwork net = new ProcessorSharingNetwork(2, 100);

  @Test
  void twoTransfersShareALinkEqually() {
    // Both at 50 B/s; the 100-byte one ends at 2 s with 100 of the 300 bytes done, then 200 at 100 B/s.
    ProcessorSharingNetwork.Flow small = net.start(0, 0, 100, 1, 0, null);
    ProcessorSharingNetwork.Flow large = net.start(0, 0, 300, 1, 0, null);
    assertEquals(2.0, net.nextCompletionTime(), EPS);
    assertSame(small, net.completeNext());
    assertEquals(100, net.bytesDone(large), 1e-6);
    assertEquals(4.0, net.nextCompletionTime(), EPS);
    assertSame(large, net.completeNext());
    assertEquals(0, net.activeFlows());
  }

  @Test
  void aLateArrivalSlowsTheFirstFromThenOn() {
    // Alone until 0.5 s (50 bytes), then 50 B/s each: the first ends at 1.5 s, the second has 50 bytes
    // by then and finishes alone at 100 B/s at 2 s.
    ProcessorSharingNetwork.Flow first = net.start(0, 0, 100, 1, 0, null);
    ProcessorSharingNetwork.Flow second = net.start(0.5, 0, 100, 1, 0, null);
    assertSame(first, net.completeNext());
    assertEquals(1.5, net.now(), EPS);
    assertSame(second, net.completeNext());
    assertEquals(2.0, net.now(), EPS);
  }

  @Test
  void aCancelledTransferFreesItsShare() {
    // 50 B/s each; at 1 s the cancelled one has 50 bytes; the other then has 150 left at 100 B/s.
    ProcessorSharingNetwork.Flow kept = net.start(0, 0, 200, 1, 0, null);
    ProcessorSharingNetwork.Flow dropped = net.start(0, 0, 200, 1, 0, null);
    assertEquals(50, net.cancel(1, dropped), 1e-6);
    assertFalse(dropped.isActive());
    assertEquals(2.5, net.nextCompletionTime(), EPS);
    assertSame(kept, net.completeNext());
    assertThrows(IllegalArgumentException.class, () -> net.cancel(2.5, dropped));
  }

  @Test
  void backgroundFlowsTakeTheirShare() {
    // One background flow: 50 B/s, 50 bytes by 1 s; three from then on: 25 B/s for the last 50 bytes.
    net.setBackground(0, 0, 1);
    net.start(0, 0, 100, 1, 0, null);
    assertEquals(2.0, net.nextCompletionTime(), EPS);
    net.setBackground(1, 0, 3);
    assertEquals(3.0, net.nextCompletionTime(), EPS);
    // The other server has no background: 100 bytes there take 1 s from 1 s.
    net.start(1, 1, 100, 1, 0, null);
    assertEquals(2.0, net.nextCompletionTime(), EPS);
  }

  @Test
  void slowdownsDivideTheShare() {
    // Shares of 50 B/s: the straggler (slowdown 2) makes 25 B/s, so 50 bytes when the other ends at 2 s,
    // then alone at 100 / 2 = 50 B/s for its last 50 bytes: 3 s.
    ProcessorSharingNetwork.Flow normal = net.start(0, 0, 100, 1, 0, null);
    ProcessorSharingNetwork.Flow straggler = net.start(0, 0, 100, 2, 0, null);
    assertSame(normal, net.completeNext());
    assertEquals(2.0, net.now(), EPS);
    assertEquals(50, net.bytesDone(straggler), 1e-6);
    assertEquals(3.0, net.nextCompletionTime(), EPS);
    // A server slowdown of 4 on top from 2.5 s: 25 bytes left at 100 / 8 B/s = 2 s more.
    net.setServerSlowdown(2.5, 0, 4);
    assertEquals(4.5, net.nextCompletionTime(), EPS);
  }

  @Test
  void serversCompleteInTimeOrder() {
    ProcessorSharingNetwork.Flow slow = net.start(0, 0, 300, 1, 0, null);
    ProcessorSharingNetwork.Flow fast = net.start(0, 1, 100, 1, 0, null);
    assertSame(fast, net.completeNext());
    assertSame(slow, net.completeNext());
    assertEquals(3.0, net.now(), EPS);
    assertThrows(IllegalStateException.class, net::completeNext);
  }

  @Test
  void timeNeitherGoesBackNorSkipsACompletion() {
    net.start(1, 0, 100, 1, 0, null);
    assertThrows(IllegalArgumentException.class, () -> net.start(0.5, 1, 100, 1, 0, null));
    assertThrows(IllegalArgumentException.class, () -> net.setBackground(3, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> net.start(1, 0, 100, 0.5, 0, null));
  }
}
