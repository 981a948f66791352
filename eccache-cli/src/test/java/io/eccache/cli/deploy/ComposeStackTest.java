package io.eccache.cli.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.ContainerState;
import org.testcontainers.containers.DockerComposeContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * docker-compose.yml end to end where Docker runs: builds the image, starts MinIO, the master with
 * the plugin and six workers, and stores and reads an object through Alluxio's own shell inside
 * the master container ({@code alluxio fs ecPut/ecGet/ecStat}). Skipped, saying why, without a
 * Docker engine (this project's CI machine has only the client).
 */
class ComposeStackTest {
  @Test
  void putAndGetThroughTheComposeStack() throws Exception {
    boolean docker;
    try {
      docker = DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      docker = false;
    }
    Assumptions.assumeTrue(docker, "Docker not available (no engine reachable): the compose stack "
        + "is validated by DeploymentTest's docker-compose config only");
    try (DockerComposeContainer<?> stack =
        new DockerComposeContainer<>(DeploymentTest.ROOT.resolve("docker-compose.yml").toFile())
            .withLocalCompose(true).withBuild(true).withEnv(dotEnvExample())
            .waitingFor("alluxio-master", Wait.forLogMessage(".*Alluxio master.*started.*", 1)
                .withStartupTimeout(Duration.ofMinutes(5)))) {
      stack.start();
      ContainerState master = stack.getContainerByServiceName("alluxio-master_1")
          .or(() -> stack.getContainerByServiceName("alluxio-master-1")).orElseThrow();
      Container.ExecResult result = master.execInContainer("bash", "-c",
          "for i in $(seq 60); do alluxio fsadmin report capacity | grep -q 'worker6' && break;"
              + " sleep 2; done;"
              + " head -c 3000017 /dev/urandom > /tmp/in && alluxio fs ecPut /tmp/in it/obj"
              + " && alluxio fs ecGet it/obj /tmp/out && cmp /tmp/in /tmp/out"
              + " && alluxio fs ecStat it/obj");
      assertEquals(0, result.getExitCode(), result.getStdout() + result.getStderr());
      assertTrue(result.getStdout().contains("RS(4,1)"), result.getStdout());
    }
  }

  /** The credentials of .env.example, as a user's .env would give them to docker-compose. */
  private static Map<String, String> dotEnvExample() throws IOException {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(DeploymentTest.ROOT.resolve(".env.example"))) {
      p.load(in);
    }
    Map<String, String> env = new HashMap<>();
    p.stringPropertyNames().forEach(k -> env.put(k, p.getProperty(k)));
    return env;
  }
}
