package io.eccache.client.form;

import io.eccache.common.proto.LookupResponse;
import java.io.IOException;
import java.util.List;

/** A scrub of one object of a form: its stored parities checked against its data. */
@FunctionalInterface
public interface RedundancyCheck {
  /**
   * The disagreements between the data and the parities of the object {@code lookup} describes,
   * one line each; empty when every parity equals a fresh encode of the data.
   *
   * @throws IOException when the data or a parity cannot be read (a lost unit, a log node away)
   */
  List<String> check(LookupResponse lookup, FormIo io) throws IOException;
}
