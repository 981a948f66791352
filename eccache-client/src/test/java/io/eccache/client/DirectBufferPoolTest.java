package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class DirectBufferPoolTest {
  @Test
  void reusesReturnedBuffersOfTheSameClass() {
    DirectBufferPool pool = new DirectBufferPool(1 << 20);
    ByteBuffer a = pool.acquire(5000);
    assertTrue(a.isDirect());
    assertEquals(5000, a.limit());
    assertEquals(8192, a.capacity());
    pool.release(a);
    assertEquals(8192, pool.retainedBytes());
    ByteBuffer b = pool.acquire(6000);
    assertSame(a, b);
    assertEquals(6000, b.limit());
    assertEquals(0, pool.retainedBytes());
    assertNotSame(b, pool.acquire(6000), "an acquired buffer is not handed out twice");
  }

  @Test
  void keepsNoMoreThanItsBound() {
    DirectBufferPool pool = new DirectBufferPool(10_000);
    pool.release(pool.acquire(8192));
    pool.release(pool.acquire(8192).duplicate()); // a second one would exceed 10,000 bytes
    ByteBuffer big = pool.acquire(1 << 16);
    pool.release(big);
    assertEquals(8192, pool.retainedBytes());
  }

  @Test
  void sizesALargeBufferToWhatIsAskedNotToAPowerOfTwo() {
    DirectBufferPool pool = new DirectBufferPool(64L << 20);
    ByteBuffer split = pool.acquire(26_843_546); // a 256 MiB object's split range at k = 10
    assertEquals(26_869_760, split.capacity(), "rounded up to 64 KiB, not to 32 MiB");
    pool.release(split);
    assertSame(split, pool.acquire(26_843_546 - 1000), "the same size class comes back");
    assertEquals(1, pool.allocations());
  }

  @Test
  void alignsForTheCoder() {
    ByteBuffer b = new DirectBufferPool(0).acquire(100);
    assertEquals(4096, b.capacity());
  }
}
