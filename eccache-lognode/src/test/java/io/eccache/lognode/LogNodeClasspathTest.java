package io.eccache.lognode;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The log node's core runs without Alluxio, gRPC or protobuf: none of them is on its classpath. */
class LogNodeClasspathTest {
  @Test
  void noAlluxioGrpcOrProtobuf() {
    for (String name : new String[] {"alluxio.conf.PropertyKey", "io.grpc.Channel",
        "com.google.protobuf.Message"}) {
      assertThrows(ClassNotFoundException.class, () -> Class.forName(name), name);
    }
  }
}
