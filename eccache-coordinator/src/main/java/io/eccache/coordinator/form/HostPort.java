package io.eccache.coordinator.form;

import alluxio.wire.WorkerNetAddress;

/** A worker as liveness is decided: host and RPC port. */
public final class HostPort {
  private final String host;
  private final int port;

  public HostPort(String host, int port) {
    this.host = host;
    this.port = port;
  }

  public static HostPort of(WorkerNetAddress address) {
    return new HostPort(address.getHost(), address.getRpcPort());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HostPort && ((HostPort) o).port == port
        && ((HostPort) o).host.equals(host);
  }

  @Override
  public int hashCode() {
    return host.hashCode() * 31 + port;
  }

  @Override
  public String toString() {
    return host + ":" + port;
  }
}
