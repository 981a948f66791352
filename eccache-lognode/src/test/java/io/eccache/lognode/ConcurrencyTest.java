package io.eccache.lognode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Several threads append and commit to their own stripes and to one shared stripe at once (on the
 * shared one, updates of consecutive versions are in flight together, so appends arrive with bases
 * ahead of the held version and commits arrive out of order), while another thread flushes, merges and
 * reads. Every read at the version the node then held matches that version's encode, and at the end
 * every stripe is at its last version with the right parity, before and after a restart.
 */
class ConcurrencyTest {
  private static final int THREADS = 4;
  private static final int UPDATES = 150;

  @TempDir
  Path dir;

  /** A stripe whose versions may be added from several threads. */
  private static final class Shared {
    final Fixture.Stripe stripe;
    /**
     * At most {@link #WINDOW} versions past the last one committed with all before it, as a
     * coordinator's leases bound a stripe's updates: commits that overtake a slow one wait in the
     * node's memory, and an unbounded run of them would fill its buffer (which it would rightly
     * refuse). A count of updates in flight would not bound that run: while one slow update holds
     * its permit the others keep cycling through theirs.
     */
    static final int WINDOW = 3;
    /** Versions committed; all up to {@link #settled} and some above. */
    private final Set<Long> committed = new HashSet<>();
    private long settled;

    Shared(Fixture.Stripe stripe) {
      this.stripe = stripe;
    }

    /** Takes the next version: the update's base, its new data, its id. */
    synchronized long[] lease(Random random, AtomicInteger ids, byte[][][] next, int[] range)
        throws InterruptedException {
      while (stripe.version() - settled >= WINDOW) {
        wait();
      }
      long base = stripe.version();
      byte[][] data = Fixture.copy(stripe.data(base));
      int unit = random.nextInt(Fixture.K);
      int offset = random.nextInt(Fixture.UNIT);
      int length = random.nextInt(Fixture.UNIT - offset + 1);
      byte[] fresh = new byte[length];
      random.nextBytes(fresh);
      System.arraycopy(fresh, 0, data[unit], offset, length);
      range[0] = unit;
      range[1] = offset;
      range[2] = length;
      next[0] = data;
      stripe.versions.add(data);
      return new long[] {base, ids.incrementAndGet()};
    }

    /** Records that {@code version} was committed at the node. */
    synchronized void committed(long version) {
      committed.add(version);
      while (committed.remove(settled + 1)) {
        settled++;
      }
      notifyAll();
    }

    synchronized byte[] parity(long version) {
      return stripe.parity(version);
    }

    synchronized byte[][] data(long version) {
      return stripe.data(version);
    }

    synchronized long version() {
      return stripe.version();
    }
  }

  @ParameterizedTest
  @EnumSource(LogScheme.class)
  void concurrentUpdatesFlushesAndReadsAgree(LogScheme scheme) throws Exception {
    LogNodeConfig config = Fixture.config(dir, scheme).bufferBytes(16 << 10).reservedBytes(600)
        .mergeLogBytes(32 << 10).build();
    LogNode node = LogNode.open(config);
    Random seeds = new Random(scheme.ordinal());
    List<Shared> stripes = new ArrayList<>();
    for (int s = 0; s <= THREADS; s++) {
      Shared shared = new Shared(new Fixture.Stripe(s, Fixture.randomData(seeds, Fixture.K, Fixture.UNIT),
          Fixture.R, 1));
      shared.stripe.putBase(node);
      stripes.add(shared);
    }
    AtomicInteger ids = new AtomicInteger();
    AtomicBoolean done = new AtomicBoolean();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
    List<Future<?>> writers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      writers.add(pool.submit(() -> {
        Random random = new Random(100 + thread);
        start.await();
        for (int n = 0; n < UPDATES; n++) {
          // Half on the thread's own stripe (id 1..THREADS), half on the shared stripe 0.
          Shared target = stripes.get(random.nextBoolean() ? 0 : thread + 1);
          byte[][][] next = new byte[1][][];
          int[] range = new int[3];
          long[] lease = target.lease(random, ids, next, range);
          byte[] old = target.data(lease[0])[range[0]];
          node.appendDelta(target.stripe.id, lease[1], lease[0], range[0], range[1],
              Fixture.delta(old, next[0][range[0]], range[1], range[2]));
          assertTrue(node.commit(target.stripe.id, lease[1], lease[0] + 1));
          target.committed(lease[0] + 1);
        }
        return null;
      }));
    }
    Future<Integer> background = pool.submit(() -> {
      Random random = new Random(7);
      start.await();
      int reads = 0;
      while (!done.get()) {
        int dice = random.nextInt(10);
        if (dice == 0) {
          node.flush();
        } else if (dice == 1) {
          node.merge();
        } else {
          Shared target = stripes.get(random.nextInt(stripes.size()));
          long held = node.version(target.stripe.id).getAsLong();
          ParityRead read = node.readParity(target.stripe.id, held);
          if (read.atVersion()) {
            assertArrayEquals(target.parity(held), read.parity(), "stripe " + target.stripe.id + " v" + held);
            reads++;
          }
        }
      }
      return reads;
    });
    start.countDown();
    for (Future<?> writer : writers) {
      writer.get(60, TimeUnit.SECONDS);
    }
    done.set(true);
    assertTrue(background.get(60, TimeUnit.SECONDS) > 0);
    pool.shutdown();
    assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));

    for (Shared shared : stripes) {
      long last = shared.version();
      assertEquals(last, node.version(shared.stripe.id).getAsLong(), "stripe " + shared.stripe.id);
      assertArrayEquals(shared.parity(last), node.readParity(shared.stripe.id, last).parity());
    }
    assertEquals(THREADS * UPDATES, ids.get());
    node.close();
    LogNode reopened = LogNode.open(config);
    for (Shared shared : stripes) {
      long last = shared.version();
      assertEquals(last, reopened.recovery().versions().get(shared.stripe.id));
      assertArrayEquals(shared.parity(last), reopened.readParity(shared.stripe.id, last).parity());
    }
    reopened.close();
  }
}
