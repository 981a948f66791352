package io.eccache.client.form;

import io.eccache.common.proto.LookupResponse;
import java.io.IOException;

/**
 * How a form whose objects are small values reads one whole, instead of the striped read path: a
 * packed value from its unit, or rebuilt from its stripe.
 */
public interface ValueReader {
  /**
   * The value {@code lookup} describes, checked against its own checksum.
   *
   * @throws IOException when it cannot be read or rebuilt (typed: what was missing)
   */
  byte[] read(LookupResponse lookup, FormIo io) throws IOException;
}
