package io.eccache.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.eccache.client.ObjectStat;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code --json} output: one JSON document per command on stdout, field names in camelCase. */
final class Json {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Json() {}

  static void print(PrintWriter out, Object value) {
    try {
      out.println(MAPPER.writeValueAsString(value));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Everything {@code eccache stat} knows about an object. */
  static Map<String, Object> of(ObjectStat stat) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("key", stat.key());
    m.put("size", stat.size());
    m.put("scheme", stat.scheme().toString());
    m.put("kind", stat.scheme().kind().label());
    m.put("splits", stat.scheme().splits());
    m.put("splitsToRead", stat.scheme().splitsToRead());
    m.put("shape", stat.scheme().describe());
    m.put("tuned", stat.tuned());
    m.put("target", stat.target().toString());
    m.put("liveSplits", stat.liveSplits());
    m.put("stripes", stat.stripes());
    m.put("cachedBytes", stat.cachedBytes());
    m.put("persisted", stat.persisted());
    m.put("popularity", stat.popularity());
    m.put("committed", stat.committed().map(Object::toString).orElse(null));
    m.put("sha256", stat.sha256().orElse(null));
    stat.packed().ifPresent(p -> {
      Map<String, Object> packed = new LinkedHashMap<>();
      packed.put("waiting", p.waiting());
      packed.put("stripe", p.stripe());
      packed.put("stripeVersion", p.stripeVersion());
      packed.put("unit", p.unit());
      packed.put("slot", p.slot());
      m.put("packed", packed);
    });
    return m;
  }
}
