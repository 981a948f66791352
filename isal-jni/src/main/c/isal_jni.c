/*
 * JNI binding of eccache's Reed-Solomon coder over Intel ISA-L.
 *
 * The Java side validates every argument before calling in (counts, sizes, directness), so these
 * functions only guard what would otherwise crash the JVM and throw IllegalArgumentException for it.
 * Nothing here keeps state: the coding tables live in Java-owned direct buffers (immutable once
 * built), which makes every call reentrant and lets the garbage collector own their lifetime.
 */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>

#include <isa-l/erasure_code.h>

#include "io_eccache_isal_IsalNative.h"

/* GF(2^8): at most 255 distinct rows in a Cauchy generator matrix. */
#define MAX_UNITS 255

static void throw_illegal_argument(JNIEnv *env, const char *message) {
  jclass cls = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
  if (cls != NULL) {
    (*env)->ThrowNew(env, cls, message);
  }
}

static int units_in_range(JNIEnv *env, jint k, jint rows) {
  if (k < 1 || rows < 1 || k + rows > MAX_UNITS) {
    throw_illegal_argument(env, "isal-jni: need 1 <= k, 1 <= rows and k + rows <= 255");
    return 0;
  }
  return 1;
}

JNIEXPORT void JNICALL Java_io_eccache_isal_IsalNative_generateCauchyMatrix(
    JNIEnv *env, jclass cls, jbyteArray matrix, jint m, jint k) {
  (void)cls;
  if (!units_in_range(env, k, m - k)) {
    return;
  }
  if ((*env)->GetArrayLength(env, matrix) < m * k) {
    throw_illegal_argument(env, "isal-jni: matrix array shorter than m * k");
    return;
  }
  unsigned char *a = malloc((size_t)m * (size_t)k);
  if (a == NULL) {
    jclass oom = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
    if (oom != NULL) {
      (*env)->ThrowNew(env, oom, "isal-jni: cannot allocate the generator matrix");
    }
    return;
  }
  gf_gen_cauchy1_matrix(a, m, k);
  (*env)->SetByteArrayRegion(env, matrix, 0, m * k, (const jbyte *)a);
  free(a);
}

JNIEXPORT void JNICALL Java_io_eccache_isal_IsalNative_initTables(
    JNIEnv *env, jclass cls, jint k, jint rows, jbyteArray matrix, jobject tables) {
  (void)cls;
  if (!units_in_range(env, k, rows)) {
    return;
  }
  if ((*env)->GetArrayLength(env, matrix) < rows * k) {
    throw_illegal_argument(env, "isal-jni: coefficient array shorter than rows * k");
    return;
  }
  unsigned char *out = (*env)->GetDirectBufferAddress(env, tables);
  if (out == NULL || (*env)->GetDirectBufferCapacity(env, tables) < (jlong)32 * k * rows) {
    throw_illegal_argument(env, "isal-jni: tables must be a direct buffer of 32 * k * rows bytes");
    return;
  }
  unsigned char coefficients[rows * k];
  (*env)->GetByteArrayRegion(env, matrix, 0, rows * k, (jbyte *)coefficients);
  ec_init_tables(k, rows, coefficients, out);
}

/* Resolves buffers[i] + positions[i] into addresses[i]; 0 (with an exception pending) on failure. */
static int resolve(JNIEnv *env, jobjectArray buffers, const jint *positions, jint count,
                   unsigned char **addresses) {
  for (jint i = 0; i < count; i++) {
    jobject buffer = (*env)->GetObjectArrayElement(env, buffers, i);
    unsigned char *base = buffer == NULL ? NULL : (*env)->GetDirectBufferAddress(env, buffer);
    /* The array still references the buffer for the whole call, so its memory stays valid. */
    (*env)->DeleteLocalRef(env, buffer);
    if (base == NULL) {
      throw_illegal_argument(env, "isal-jni: every buffer must be a non-null direct ByteBuffer");
      return 0;
    }
    addresses[i] = base + positions[i];
  }
  return 1;
}

JNIEXPORT void JNICALL Java_io_eccache_isal_IsalNative_encode(
    JNIEnv *env, jclass cls, jobject tables, jint k, jint rows, jint len,
    jobjectArray inputs, jobjectArray outputs, jintArray positions) {
  (void)cls;
  if (!units_in_range(env, k, rows)) {
    return;
  }
  if (len <= 0) {
    return;
  }
  unsigned char *tbl = (*env)->GetDirectBufferAddress(env, tables);
  if (tbl == NULL) {
    throw_illegal_argument(env, "isal-jni: tables must be a direct buffer");
    return;
  }
  jint pos[k + rows];
  (*env)->GetIntArrayRegion(env, positions, 0, k + rows, pos);
  if ((*env)->ExceptionCheck(env)) {
    return;
  }
  unsigned char *in[k];
  unsigned char *out[rows];
  if (!resolve(env, inputs, pos, k, in) || !resolve(env, outputs, pos + k, rows, out)) {
    return;
  }
  ec_encode_data(len, k, rows, tbl, in, out);
}

JNIEXPORT void JNICALL Java_io_eccache_isal_IsalNative_encodeAddresses(
    JNIEnv *env, jclass cls, jlong tables, jint k, jint rows, jint len, jlongArray addresses) {
  (void)cls;
  if (!units_in_range(env, k, rows)) {
    return;
  }
  if (len <= 0) {
    return;
  }
  if (tables == 0 || (*env)->GetArrayLength(env, addresses) < k + rows) {
    throw_illegal_argument(env, "isal-jni: need the tables' address and k + rows unit addresses");
    return;
  }
  jlong raw[k + rows];
  (*env)->GetLongArrayRegion(env, addresses, 0, k + rows, raw);
  unsigned char *units[k + rows];
  for (jint i = 0; i < k + rows; i++) {
    if (raw[i] == 0) {
      throw_illegal_argument(env, "isal-jni: null unit address");
      return;
    }
    units[i] = (unsigned char *)(intptr_t)raw[i];
  }
  ec_encode_data(len, k, rows, (unsigned char *)(intptr_t)tables, units, units + k);
}

JNIEXPORT jlong JNICALL Java_io_eccache_isal_IsalNative_address(
    JNIEnv *env, jclass cls, jobject buffer) {
  (void)cls;
  return (jlong)(intptr_t)(*env)->GetDirectBufferAddress(env, buffer);
}
