package io.eccache.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Caps the bandwidth a loopback address sends at, with Linux {@code tc} on {@code lo}: an HTB qdisc
 * whose default class is unlimited and whose second class, for packets from the given address, has
 * the cap (HTB rather than netem: HTB is what this machine's kernel has, and bandwidth is what the
 * paper's stragglers lack). Needs root and iproute2; {@link #isAvailable()} says whether this machine
 * has them. Always close it: closing removes the qdisc (a shutdown hook does so if the JVM exits).
 */
public final class LoopbackShaper implements AutoCloseable {
  private static final String DEVICE = "lo";
  private static final Pattern CLASS_LINE = Pattern.compile("^class htb (\\S+) ");
  private static final Pattern SENT_LINE = Pattern.compile("^\\s*Sent (\\d+) bytes");
  private final Thread cleanup = new Thread(LoopbackShaper::removeQdisc, "tc-cleanup");
  /** tc class id -> the host whose packets it shapes. */
  private final Map<String, String> classes = new HashMap<>();
  /** Each shaped host's cap now, kbit/s. */
  private final Map<String, Integer> rates = new HashMap<>();

  private LoopbackShaper() {}

  /** Whether tc can shape loopback here (root, iproute2, a kernel with prio and netem). */
  public static boolean isAvailable() {
    try {
      if (run(List.of("tc", "qdisc", "show", "dev", DEVICE)) != 0) {
        return false;
      }
      // Probe by adding and removing a harmless root qdisc: the only proof that we may.
      boolean ok = run(List.of("tc", "qdisc", "add", "dev", DEVICE, "root", "handle", "1:", "htb",
          "default", "10")) == 0;
      removeQdisc();
      return ok;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Caps what {@code host} sends at {@code kbitPerSecond}; everything else on loopback is unaffected.
   *
   * @throws IOException if tc refuses (not root, no HTB, a root qdisc already installed)
   */
  public static LoopbackShaper limitFrom(String host, int kbitPerSecond) throws IOException {
    Map<String, Integer> one = new LinkedHashMap<>();
    one.put(host, kbitPerSecond);
    return limitEach(one);
  }

  /**
   * Gives every listed host its own HTB class capped at its rate (one class per worker address, as
   * the paper's servers each have their own link), so {@link #bytesSent()} also counts per host.
   *
   * @throws IOException if tc refuses (not root, no HTB, a root qdisc already installed)
   */
  public static LoopbackShaper limitEach(Map<String, Integer> kbitPerSecondByHost)
      throws IOException {
    LoopbackShaper shaper = new LoopbackShaper();
    Runtime.getRuntime().addShutdownHook(shaper.cleanup);
    try {
      check(List.of("tc", "qdisc", "add", "dev", DEVICE, "root", "handle", "1:", "htb", "default",
          "10"));
      check(List.of("tc", "class", "add", "dev", DEVICE, "parent", "1:", "classid", "1:10", "htb",
          "rate", "40gbit", "burst", "4m", "quantum", "200000"));
      int id = 100;
      for (Map.Entry<String, Integer> e : kbitPerSecondByHost.entrySet()) {
        String classId = "1:" + id++;
        int kbit = e.getValue();
        check(List.of("tc", "class", "add", "dev", DEVICE, "parent", "1:", "classid", classId,
            "htb", "rate", kbit + "kbit", "ceil", kbit + "kbit"));
        check(List.of("tc", "filter", "add", "dev", DEVICE, "parent", "1:", "protocol", "ip",
            "prio", "1", "u32", "match", "ip", "src", e.getKey() + "/32", "flowid", classId));
        shaper.classes.put(classId, e.getKey());
        shaper.rates.put(e.getKey(), kbit);
      }
    } catch (IOException | RuntimeException e) {
      shaper.close();
      throw e;
    }
    return shaper;
  }

  /** The cap of {@code host} now, kbit/s; null if it is not shaped. */
  public Integer rate(String host) {
    return rates.get(host);
  }

  /**
   * Changes the cap of {@code host}, one of the shaped hosts, to {@code kbitPerSecond}: a straggler
   * made and healed while the cluster runs (its connections stay up).
   *
   * @throws IOException if the host is not shaped or tc refuses
   */
  public void setRate(String host, int kbitPerSecond) throws IOException {
    for (Map.Entry<String, String> e : classes.entrySet()) {
      if (e.getValue().equals(host)) {
        check(List.of("tc", "class", "change", "dev", DEVICE, "parent", "1:", "classid",
            e.getKey(), "htb", "rate", kbitPerSecond + "kbit", "ceil", kbitPerSecond + "kbit"));
        rates.put(host, kbitPerSecond);
        return;
      }
    }
    throw new IOException(host + " is not shaped: the shaped hosts are " + classes.values());
  }

  /**
   * Bytes each shaped host has sent since the classes were made, from the kernel's own per-class
   * counters: a count independent of the client's.
   */
  public Map<String, Long> bytesSent() throws IOException {
    List<String> output = new ArrayList<>();
    if (run(List.of("tc", "-s", "class", "show", "dev", DEVICE), output) != 0) {
      throw new IOException("tc -s class show failed: " + output);
    }
    Map<String, Long> sent = new TreeMap<>();
    String current = null;
    for (String line : String.join("\n", output).split("\n")) {
      Matcher c = CLASS_LINE.matcher(line);
      if (c.find()) {
        current = classes.get(c.group(1));
        continue;
      }
      Matcher b = SENT_LINE.matcher(line);
      if (current != null && b.find()) {
        sent.put(current, Long.parseLong(b.group(1)));
        current = null;
      }
    }
    return sent;
  }

  @Override
  public void close() {
    removeQdisc();
    try {
      Runtime.getRuntime().removeShutdownHook(cleanup);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
  }

  private static void removeQdisc() {
    try {
      run(List.of("tc", "qdisc", "del", "dev", DEVICE, "root"));
    } catch (IOException e) {
      // nothing was added
    }
  }

  private static void check(List<String> command) throws IOException {
    List<String> output = new ArrayList<>();
    if (run(command, output) != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + String.join(" ", output)
          + " (shaping loopback needs root and the sch_htb kernel module)");
    }
  }

  private static int run(List<String> command) throws IOException {
    return run(command, new ArrayList<>());
  }

  private static int run(List<String> command, List<String> output) throws IOException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      output.add(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim());
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return -1;
      }
      return p.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      return -1;
    }
  }
}
