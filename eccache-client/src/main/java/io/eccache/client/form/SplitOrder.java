package io.eccache.client.form;

import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import java.util.List;
import java.util.Random;

/** The order an object's readable splits are asked for: the first k, then each replacement. */
public interface SplitOrder {
  /** The splits of {@code lookup} that can be read, in the order they are asked for. */
  List<Split> order(LookupResponse lookup, int k, Random random);
}
