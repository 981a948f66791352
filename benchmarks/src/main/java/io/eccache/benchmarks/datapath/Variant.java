package io.eccache.benchmarks.datapath;

/**
 * One thing measured: an operation (GET or PUT) done one way. eccache is the product; "pk" (p10
 * at k = 10) is the same bytes as k plain MUST_CACHE Alluxio files pinned to k workers, moved in
 * parallel; "plain" is one MUST_CACHE Alluxio file.
 */
public enum Variant {
  GET_ECCACHE("GET", "eccache"),
  GET_PK("GET", "pk"),
  GET_PLAIN("GET", "plain"),
  PUT_ECCACHE("PUT", "eccache"),
  PUT_PK("PUT", "pk"),
  PUT_PLAIN("PUT", "plain");

  private final String op;
  private final String how;

  Variant(String op, String how) {
    this.op = op;
    this.how = how;
  }

  /** "GET" or "PUT". */
  public String op() {
    return op;
  }

  /** Whether it reads (and so its results are compared with the data written). */
  public boolean isGet() {
    return "GET".equals(op);
  }

  /** "eccache", "p" + k (p10) or "plain". */
  public String label(int k) {
    return "pk".equals(how) ? "p" + k : how;
  }

  /** The variant doing {@code op} ("GET", "PUT") the {@code how} way ("eccache", "pk", "plain"). */
  public static Variant of(String op, String how) {
    for (Variant v : values()) {
      if (v.op.equals(op) && v.how.equals(how)) {
        return v;
      }
    }
    throw new IllegalArgumentException("no variant " + op + " " + how);
  }

  /** "eccache", "pk" or "plain", whatever k is. */
  public String kind() {
    return how;
  }
}
