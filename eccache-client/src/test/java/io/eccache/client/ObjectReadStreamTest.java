package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.Configuration;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** A stream served from the under store (no cluster: the copy is a byte array). */
class ObjectReadStreamTest {
  private static final ObjectReadStream.UnderStoreCopy NO_RECACHE =
      new ObjectReadStream.UnderStoreCopy() {
        @Override
        public InputStream openAt(long position, IOException cause) throws IOException {
          throw cause;
        }

        @Override
        public void recache(byte[] whole) {}
      };

  @Test
  void anUnderStoreCopyShorterThanTheObjectFailsTheStreamRatherThanEndingIt() throws Exception {
    try (ClientContext context = ClientContext.create(Configuration.global())) {
      byte[] copy = {1, 2, 3, 4};
      try (ObjectReadStream stream = ObjectReadStream.fromUnderStore(context, "k", 10,
          new ByteArrayInputStream(copy), NO_RECACHE)) {
        byte[] got = new byte[10];
        assertEquals(4, stream.read(got, 0, 10));
        IOException e = assertThrows(IOException.class, () -> stream.read(got, 4, 6));
        assertTrue(e.getMessage().contains("ended at byte 4 of 10"), e.getMessage());
      }
      try (ObjectReadStream whole = ObjectReadStream.fromUnderStore(context, "k", 4,
          new ByteArrayInputStream(copy), NO_RECACHE)) {
        byte[] got = new byte[4];
        assertEquals(4, whole.read(got, 0, 4));
        assertArrayEquals(copy, got);
        assertEquals(-1, whole.read(got, 0, 4)); // at the object's end, and only there
      }
    }
  }
}
