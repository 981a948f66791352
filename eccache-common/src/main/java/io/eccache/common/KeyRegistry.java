package io.eccache.common;

import alluxio.conf.Configuration;
import alluxio.conf.PropertyKey;
import alluxio.conf.Source;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers eccache's keys with Alluxio. Alluxio reads {@code alluxio-site.properties} and {@code -D}
 * options when its configuration first loads, which in a master is before the plugin's classes: it
 * then holds an eccache value under an untyped custom key of the same name. Registering replaces
 * that key with the typed one and parses the value read again, so the setting is neither lost nor
 * fatal ("Cannot register existing key"). A value set under a key's name before 0.2 is taken over
 * the same way, with a warning naming the new key.
 */
final class KeyRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(KeyRegistry.class);

  private KeyRegistry() {}

  /** Registers {@code key}; {@code formerName} is the name it had before (or null). */
  static PropertyKey register(PropertyKey key, String formerName) {
    Value early = takeOver(key.getName());
    PropertyKey.register(key);
    Value former = formerName == null ? null : takeOver(formerName);
    if (early != null) {
      set(key, early);
    } else if (former != null) {
      LOG.warn("eccache: {} is now called {}: rename it in alluxio-site.properties", formerName,
          key.getName());
      set(key, former);
    }
    return key;
  }

  /** A value Alluxio read before the key was registered, and where it came from. */
  private static final class Value {
    final Object value;
    final Source source;

    Value(Object value, Source source) {
      this.value = value;
      this.source = source;
    }
  }

  /** Removes an untyped key Alluxio made while loading its configuration; its value, or null. */
  private static Value takeOver(String name) {
    if (!PropertyKey.isValid(name)) {
      return null;
    }
    PropertyKey early = PropertyKey.fromString(name);
    Value value = Configuration.isSet(early)
        ? new Value(Configuration.get(early), Configuration.getSource(early)) : null;
    if (value != null) {
      Configuration.unset(early);
    }
    PropertyKey.unregister(early);
    return value;
  }

  private static void set(PropertyKey key, Value taken) {
    Object value = taken.value;
    Configuration.set(key, value instanceof String ? key.parseValue((String) value) : value,
        taken.source);
  }
}
