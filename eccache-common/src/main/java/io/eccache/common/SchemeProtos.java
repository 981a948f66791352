package io.eccache.common;

import io.eccache.common.proto.Layout;
import io.eccache.common.proto.Scheme;
import io.eccache.common.proto.SchemeKind;

/** {@link RedundancyScheme} to and from its wire form, kept apart so the scheme stays pure Java. */
public final class SchemeProtos {
  private SchemeProtos() {}

  /** The wire form of {@code scheme}: its kind and only that kind's fields. */
  public static Scheme toProto(RedundancyScheme scheme) {
    Scheme.Builder b = Scheme.newBuilder().setKind(toProto(scheme.kind()));
    switch (scheme.kind()) {
      case ERASURE_CODED:
        return b.setDataSplits(scheme.dataSplits()).setParitySplits(scheme.paritySplits()).build();
      case REPLICATED:
        return b.setCopies(scheme.copies()).build();
      default:
        return b.setDataSplits(scheme.dataSplits()).build();
    }
  }

  /**
   * The scheme {@code proto} describes.
   *
   * @throws IllegalArgumentException if it names no kind or numbers out of range
   */
  public static RedundancyScheme fromProto(Scheme proto) {
    switch (proto.getKind()) {
      case ERASURE_CODED:
        return RedundancyScheme.erasureCoded(proto.getDataSplits(), proto.getParitySplits());
      case REPLICATED:
        return RedundancyScheme.replicated(proto.getCopies());
      case PARTITIONED:
        return RedundancyScheme.partitioned(proto.getDataSplits());
      default:
        throw new IllegalArgumentException("no scheme kind in " + proto);
    }
  }

  /** The scheme of a layout. */
  public static RedundancyScheme of(Layout layout) {
    return fromProto(layout.getScheme());
  }

  public static SchemeKind toProto(RedundancyScheme.Kind kind) {
    switch (kind) {
      case ERASURE_CODED:
        return SchemeKind.ERASURE_CODED;
      case REPLICATED:
        return SchemeKind.REPLICATED;
      default:
        return SchemeKind.PARTITIONED;
    }
  }

  /**
   * @throws IllegalArgumentException for {@code SCHEME_KIND_UNSPECIFIED}
   */
  public static RedundancyScheme.Kind fromProto(SchemeKind kind) {
    switch (kind) {
      case ERASURE_CODED:
        return RedundancyScheme.Kind.ERASURE_CODED;
      case REPLICATED:
        return RedundancyScheme.Kind.REPLICATED;
      case PARTITIONED:
        return RedundancyScheme.Kind.PARTITIONED;
      default:
        throw new IllegalArgumentException("no scheme kind: " + kind);
    }
  }
}
