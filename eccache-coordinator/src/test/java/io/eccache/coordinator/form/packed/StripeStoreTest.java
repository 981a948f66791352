package io.eccache.coordinator.form.packed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.AbortedException;
import alluxio.exception.status.AlreadyExistsException;
import alluxio.exception.status.NotFoundException;
import io.eccache.common.proto.Stripe;
import io.eccache.common.proto.StripeUnit;
import io.eccache.coordinator.AdjustableClock;
import io.eccache.coordinator.InMemoryNamespace;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The lease and version rule every mutation of a packed stripe obeys (in-memory namespace). */
class StripeStoreTest {
  private static final long LEASE_MS = 5_000;

  private final AdjustableClock clock =
      new AdjustableClock(Clock.fixed(Instant.ofEpochMilli(1_000_000), ZoneOffset.UTC));
  private final InMemoryNamespace ns = new InMemoryNamespace(clock);
  private final StripeStore stripes = new StripeStore(ns, "/.eccache/stripes", clock, LEASE_MS);

  private Stripe sealed(long id) throws Exception {
    Stripe stripe = Stripe.newBuilder().setId(id).setNamespace("kv").setVersion(1)
        .setDataUnits(2).setParityUnits(2).setUnitSize(4096)
        .addUnits(StripeUnit.newBuilder().setPath(stripes.directory(id) + "/d0.v1"))
        .addUnits(StripeUnit.newBuilder().setPath(stripes.directory(id) + "/d1.v1"))
        .addUnits(StripeUnit.newBuilder().setPath(stripes.directory(id) + "/p0.v1")).build();
    stripes.create(stripe);
    return stripe;
  }

  private static Stripe.Builder newUnit0(Stripe.Builder s) {
    return s.setUnits(0, s.getUnits(0).toBuilder().setPath(s.getUnits(0).getPath() + "'"));
  }

  @Test
  void aCommitMakesTheNextVersionInOneRecord() throws Exception {
    Stripe first = sealed(7);
    assertEquals(first, stripes.read(7));
    assertThrows(AlreadyExistsException.class, () -> sealed(7));
    stripes.lease(7, "u1");
    Stripe second = stripes.commit(7, "u1", StripeStoreTest::newUnit0);
    assertEquals(2, second.getVersion());
    assertEquals("u1", second.getLastUpdateId());
    assertTrue(second.getUnits(0).getPath().endsWith("'"));
    assertEquals(second, stripes.read(7));
    assertNull(stripes.read(8));
    assertThrows(NotFoundException.class, () -> stripes.lease(8, "u"));
  }

  @Test
  void oneMutationAtATimeUntilItsLeaseEnds() throws Exception {
    sealed(7);
    stripes.lease(7, "u1");
    AbortedException busy = assertThrows(AbortedException.class, () -> stripes.lease(7, "u2"));
    assertTrue(busy.getMessage().contains("being changed by update u1"), busy.getMessage());
    stripes.release(7, "u1");
    stripes.lease(7, "u2");
    clock.advance(Duration.ofMillis(LEASE_MS));
    stripes.lease(7, "u3"); // u2 died: its lease ran out
    AbortedException lost = assertThrows(AbortedException.class,
        () -> stripes.commit(7, "u2", StripeStoreTest::newUnit0));
    assertTrue(lost.getMessage().contains("no longer holds"), lost.getMessage());
    assertEquals(1, stripes.read(7).getVersion(), "nothing changed");
    assertEquals(2, stripes.commit(7, "u3", StripeStoreTest::newUnit0).getVersion());
  }

  @Test
  void aCommitAfterItsLeaseExpiredChangesNothing() throws Exception {
    sealed(7);
    stripes.lease(7, "u1");
    clock.advance(Duration.ofMillis(LEASE_MS));
    assertThrows(AbortedException.class, () -> stripes.commit(7, "u1", StripeStoreTest::newUnit0));
    assertEquals(1, stripes.read(7).getVersion());
  }

  @Test
  void aStripeChangedBehindALeaseRefusesItsCommit() throws Exception {
    sealed(7);
    stripes.lease(7, "u1");
    // Another path moved the stripe on (a restarted master's repair, say) while u1 held its lease.
    ns.putXattr(stripes.directory(7), StripeStore.STRIPE_XATTR,
        stripes.read(7).toBuilder().setVersion(5).build().toByteArray());
    AbortedException moved = assertThrows(AbortedException.class,
        () -> stripes.commit(7, "u1", StripeStoreTest::newUnit0));
    assertTrue(moved.getMessage().contains("moved from version 1 to 5"), moved.getMessage());
    assertEquals(5, stripes.read(7).getVersion());
  }
}
