package io.eccache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.RedundancyScheme.Kind;
import org.junit.jupiter.api.Test;

/** The scheme's numbers, text form and wire form, by hand-computed cases. */
class RedundancySchemeTest {
  @Test
  void erasureCodeKnowsItsSplits() {
    RedundancyScheme rs = RedundancyScheme.parse("rs-10-4");
    assertEquals(Kind.ERASURE_CODED, rs.kind());
    assertEquals(10, rs.dataSplits());
    assertEquals(4, rs.paritySplits());
    assertEquals(14, rs.splits());
    assertEquals(10, rs.splitsToRead());
    assertEquals(4, rs.toleratedLosses());
    assertEquals(4, rs.redundancy());
    assertEquals(RedundancyScheme.erasureCoded(10, 6), rs.withRedundancy(6));
    assertEquals(100, rs.unitBytes(1000), "one parity split is 1/k of the object");
    assertEquals(101, rs.unitBytes(1001), "rounded up, as the splits are");
    assertEquals("d00", rs.splitName(0));
    assertEquals("d09", rs.splitName(9));
    assertEquals("p00", rs.splitName(10));
    assertEquals("p03", rs.splitName(13));
    assertFalse(rs.isParity(9));
    assertTrue(rs.isParity(10));
    assertEquals("RS(10,4)", rs.describe());
  }

  @Test
  void replicasAreCopiesNotParities() {
    RedundancyScheme copies = RedundancyScheme.parse("REPLICA-3");
    assertEquals(Kind.REPLICATED, copies.kind());
    assertEquals(3, copies.copies());
    assertEquals(3, copies.splits());
    assertEquals(1, copies.splitsToRead());
    assertEquals(1, copies.dataSplits(), "a copy is the whole object: one part per stripe");
    assertEquals(0, copies.paritySplits());
    assertEquals(3, copies.redundancy(), "tuned in copies, not copies - 1");
    assertEquals(2, copies.toleratedLosses());
    assertEquals(500, copies.unitBytes(500));
    assertEquals("r00", copies.splitName(0));
    assertEquals("r02", copies.splitName(2));
    assertFalse(copies.isParity(1));
    assertEquals("3 copies", copies.describe());
    assertEquals("1 copy", RedundancyScheme.replicated(1).describe());
  }

  @Test
  void partitionsAreAllRead() {
    RedundancyScheme parts = RedundancyScheme.parse("partition-4");
    assertEquals(Kind.PARTITIONED, parts.kind());
    assertEquals(4, parts.splits());
    assertEquals(4, parts.splitsToRead());
    assertEquals(0, parts.toleratedLosses());
    assertEquals(4, parts.redundancy());
    assertEquals(RedundancyScheme.partitioned(7), parts.withRedundancy(7));
    assertEquals(0, parts.unitBytes(1000), "more partitions cost no memory");
    assertEquals("d03", parts.splitName(3));
  }

  @Test
  void textFormRoundTrips() {
    assertEquals("rs-6-3", RedundancyScheme.parse(" 6+3 ").toString());
    for (String text : new String[] {"rs-4-1", "rs-10-0", "replica-2", "partition-7", "rs-1-254"}) {
      assertEquals(text, RedundancyScheme.parse(text).toString());
    }
    assertEquals(RedundancyScheme.parse("rs-10-1"), RedundancyScheme.PAPER_DEFAULT);
    assertNotEquals(RedundancyScheme.parse("rs-1-1"), RedundancyScheme.parse("replica-2"),
        "same splits, different kinds");
  }

  @Test
  void refusesWhatItCannotStoreQuotingTheInput() {
    for (String bad : new String[] {"", "rs-10", "raid5", "rs-0-1", "rs-200-100", "replica-0",
        "partition-256", "rs-99999999999-1", "rs--1-2", "default", null}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> RedundancyScheme.parse(bad), String.valueOf(bad));
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class,
        () -> RedundancyScheme.erasureCoded(200, Integer.MAX_VALUE), "the sum overflows");
    assertThrows(IllegalArgumentException.class, () -> RedundancyScheme.erasureCoded(10, -1));
  }

  @Test
  void kindsParseFromConfigurationNames() {
    assertEquals(Kind.ERASURE_CODED, Kind.parse("ec"));
    assertEquals(Kind.ERASURE_CODED, Kind.parse("RS"));
    assertEquals(Kind.REPLICATED, Kind.parse(" replica "));
    assertEquals(Kind.PARTITIONED, Kind.parse("partition"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Kind.parse("raid"));
    assertTrue(e.getMessage().contains("'raid'"), e.getMessage());
  }

  @Test
  void wireFormRoundTripsWithOnlyItsKindsFields() {
    for (String text : new String[] {"rs-10-4", "replica-3", "partition-5"}) {
      RedundancyScheme s = RedundancyScheme.parse(text);
      assertEquals(s, SchemeProtos.fromProto(SchemeProtos.toProto(s)));
    }
    assertEquals(0, SchemeProtos.toProto(RedundancyScheme.replicated(3)).getDataSplits());
    assertEquals(0, SchemeProtos.toProto(RedundancyScheme.partitioned(3)).getCopies());
    assertThrows(IllegalArgumentException.class,
        () -> SchemeProtos.fromProto(io.eccache.common.proto.Scheme.getDefaultInstance()));
  }
}
