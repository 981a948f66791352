package io.eccache.client.form;

import io.eccache.client.form.packed.LogNodeClient;
import io.eccache.common.CoordinatorClient;
import io.eccache.common.proto.Split;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;

/** A {@link FormIo} that forwards every call to another, for one that changes a few of them. */
public abstract class ForwardingFormIo implements FormIo {
  private final FormIo delegate;

  protected ForwardingFormIo(FormIo delegate) {
    this.delegate = delegate;
  }

  @Override
  public byte[] readRange(Split split, long offset, int length) throws IOException {
    return delegate.readRange(split, offset, length);
  }

  @Override
  public List<byte[]> readRanges(List<Split> splits, long offset, int length,
      List<IOException> failures) {
    return delegate.readRanges(splits, offset, length, failures);
  }

  @Override
  public void writeFiles(List<NewFile> files) throws IOException {
    delegate.writeFiles(files);
  }

  @Override
  public ExecutorService io() {
    return delegate.io();
  }

  @Override
  public long ioTimeoutMs() {
    return delegate.ioTimeoutMs();
  }

  @Override
  public LogNodeClient logNodes() {
    return delegate.logNodes();
  }

  @Override
  public CoordinatorClient coordinator() {
    return delegate.coordinator();
  }
}
