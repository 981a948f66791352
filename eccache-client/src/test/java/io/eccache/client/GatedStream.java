package io.eccache.client;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A PUT's source that stops once, after {@code pauseAt} bytes, until the test opens
 * {@code resume}: so a fault can be injected while a PUT is under way.
 */
final class GatedStream extends InputStream {
  private final byte[] data;
  private final int pauseAt;
  private final CountDownLatch started;
  private final CountDownLatch resume;
  private int at;

  GatedStream(byte[] data, int pauseAt, CountDownLatch started, CountDownLatch resume) {
    this.data = data;
    this.pauseAt = pauseAt;
    this.started = started;
    this.resume = resume;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (at >= data.length) {
      return -1;
    }
    if (at >= pauseAt && started.getCount() > 0) {
      started.countDown();
      try {
        if (!resume.await(120, TimeUnit.SECONDS)) {
          throw new IOException("the test never resumed this PUT's stream (120 s)");
        }
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
    }
    int n = Math.min(len, (at < pauseAt ? pauseAt : data.length) - at);
    System.arraycopy(data, at, b, off, n);
    at += n;
    return n;
  }
}
