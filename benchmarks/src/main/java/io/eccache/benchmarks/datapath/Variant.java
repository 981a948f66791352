package io.eccache.benchmarks.datapath;

/**
 * One thing measured: an operation (GET or PUT) done one way. eccache is the product; "pk" (p10
 * at k = 10) is the same bytes as k plain MUST_CACHE Alluxio files pinned to k workers, moved in
 * parallel; "plain" is one MUST_CACHE Alluxio file.
 */
public enum Variant {
  GET_ECCACHE(Operation.GET, "eccache"),
  GET_PK(Operation.GET, "pk"),
  GET_PLAIN(Operation.GET, "plain"),
  PUT_ECCACHE(Operation.PUT, "eccache"),
  PUT_PK(Operation.PUT, "pk"),
  PUT_PLAIN(Operation.PUT, "plain");

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

  /** "eccache", "p" + k (p10) or "plain". */
  public String label(int k) {
    return "pk".equals(how) ? "p" + k : how;
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

  /** "eccache", "pk" or "plain", whatever k is. */
  public String kind() {
    return how;
  }
}
