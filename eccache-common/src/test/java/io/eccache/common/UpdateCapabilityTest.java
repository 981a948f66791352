package io.eccache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A capability names one update of one stripe from one version, under one key. */
class UpdateCapabilityTest {
  @Test
  void aCapabilityHoldsOnlyForItsUpdateStripeVersionAndKey() {
    byte[] key = UpdateCapability.newKey();
    assertEquals(UpdateCapability.KEY_BYTES, key.length);
    byte[] proof = UpdateCapability.of(key, 41, 7, 3);
    assertTrue(UpdateCapability.holds(key, 41, 7, 3, proof));
    assertFalse(UpdateCapability.holds(key, 42, 7, 3, proof), "another stripe");
    assertFalse(UpdateCapability.holds(key, 41, 8, 3, proof), "another update");
    assertFalse(UpdateCapability.holds(key, 41, 7, 4, proof), "another base version");
    assertFalse(UpdateCapability.holds(UpdateCapability.newKey(), 41, 7, 3, proof),
        "another coordinator's key");
    assertFalse(UpdateCapability.holds(key, 41, 7, 3, new byte[0]), "none");
    assertFalse(UpdateCapability.holds(null, 41, 7, 3, proof), "no key yet");
    byte[] flipped = proof.clone();
    flipped[0] ^= 1;
    assertFalse(UpdateCapability.holds(key, 41, 7, 3, flipped));
  }
}
