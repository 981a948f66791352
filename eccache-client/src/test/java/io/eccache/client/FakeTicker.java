package io.eccache.client;

import com.google.common.base.Ticker;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when a test moves it; read from any thread. */
final class FakeTicker extends Ticker {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);

  @Override
  public long read() {
    return now.get();
  }

  void advanceMs(long ms) {
    now.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
  }
}
