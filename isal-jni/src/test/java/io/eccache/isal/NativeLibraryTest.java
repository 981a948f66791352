package io.eccache.isal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Where the build made the native library (linux-x86_64), the build sets eccache.isal.required and
 * this test fails the build unless the library really loaded from the jar's resources: CI must never
 * silently test or measure the Java fallback.
 */
class NativeLibraryTest {
  @Test
  void nativeLibraryLoadsWhereItIsRequired() {
    if (!Boolean.getBoolean(ReedSolomon.REQUIRE_NATIVE_PROPERTY)) {
      // Not a native build (another platform): the fallback is the expected outcome, and it says why.
      assertNotNull(IsalLibrary.loadingFailureReason());
      assertEquals(ReedSolomon.Implementation.JAVA, ReedSolomon.defaultImplementation());
      return;
    }
    assertTrue(IsalLibrary.isAvailable(),
        () -> "the native library was built but did not load: " + IsalLibrary.loadingFailureReason());
    assertNull(IsalLibrary.loadingFailureReason());
    assertTrue(IsalLibrary.source().startsWith("jar:/native/linux-x86_64/"), IsalLibrary.source());
    assertEquals(ReedSolomon.Implementation.NATIVE, ReedSolomon.defaultImplementation());
    assertEquals(ReedSolomon.Implementation.NATIVE, ReedSolomon.coder(10, 4).implementation());
  }

  @Test
  void platformDirectoryMatchesTheResourceLayout() {
    String os = System.getProperty("os.name").toLowerCase();
    String arch = System.getProperty("os.arch");
    if (os.startsWith("linux") && arch.equals("amd64")) {
      assertEquals("native/linux-x86_64", IsalLibrary.platformDirectory());
      assertNotNull(IsalLibrary.class.getResource("/native/linux-x86_64/LICENSE-isa-l.txt"),
          "ISA-L's BSD-3 notice ships beside its library");
    }
  }
}
