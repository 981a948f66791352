package io.eccache.benchmarks.datapath;

/**
 * One thing measured: an operation (GET or PUT) done one way. eccache is the product; "pk" (p10
 * at k = 10) is the same bytes as k plain MUST_CACHE Alluxio files pinned to k workers, moved in
 * parallel; "plain" is one MUST_CACHE Alluxio file; "pkr" (p10+1, PUT only, when asked for) is
 * the bytes eccache stores, k parts and r more as k + r such files, so that eccache over it
 * leaves out what the redundancy's bytes cost.
 */
public enum Variant {
  GET_ECCACHE(Operation.GET, "eccache"),
  GET_PK(Operation.GET, "pk"),
  GET_PLAIN(Operation.GET, "plain"),
  PUT_ECCACHE(Operation.PUT, "eccache"),
  PUT_PK(Operation.PUT, "pk"),
  PUT_PLAIN(Operation.PUT, "plain"),
  PUT_PKR(Operation.PUT, "pkr");

  /** What a variant does to an object. */
  public enum Operation {
    GET,
    PUT
  }

  private final Operation operation;
  private final String how;

  Variant(Operation operation, String how) {
    this.operation = operation;
    this.how = how;
  }

  /** What it does. */
  public Operation operation() {
    return operation;
  }

  /** "GET" or "PUT". */
  public String op() {
    return operation.name();
  }

  /** Whether it reads (and so its results are compared with the data written). */
  public boolean isGet() {
    return operation == Operation.GET;
  }

  /** "eccache", "p" + k (p10), "plain" or "p" + k + "+" + r (p10+1). */
  public String label(int k, int r) {
    return "pk".equals(how) ? "p" + k : "pkr".equals(how) ? "p" + k + "+" + r : how;
  }

  /** The variant doing {@code op} ("GET", "PUT") the {@code how} way ("eccache", "pk", "plain"). */
  public static Variant of(String op, String how) {
    for (Variant v : values()) {
      if (v.op().equals(op) && v.how.equals(how)) {
        return v;
      }
    }
    throw new IllegalArgumentException("no variant " + op + " " + how);
  }

  /** "eccache", "pk", "plain" or "pkr", whatever k and r are. */
  public String kind() {
    return how;
  }
}
