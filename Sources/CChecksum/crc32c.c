#include "crc32c.h"

#include <string.h>

static uint32_t crc32c_table[256];

static void crc32c_build_table(void) {
    for (uint32_t byte = 0; byte < 256; byte++) {
        uint32_t crc = byte;
        for (int bit = 0; bit < 8; bit++) crc = (crc & 1) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
        crc32c_table[byte] = crc;
    }
}

static uint32_t crc32c_portable(uint32_t crc, const uint8_t *bytes, size_t length) {
    while (length--) crc = (crc >> 8) ^ crc32c_table[(crc ^ *bytes++) & 0xFF];
    return crc;
}

#if defined(__x86_64__)
#include <nmmintrin.h>

__attribute__((target("sse4.2"))) static uint32_t crc32c_hardware(uint32_t crc, const uint8_t *bytes, size_t length) {
    uint64_t wide = crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        wide = _mm_crc32_u64(wide, word);
        bytes += 8;
        length -= 8;
    }
    crc = (uint32_t)wide;
    while (length--) crc = _mm_crc32_u8(crc, *bytes++);
    return crc;
}

static int crc32c_hardware_available(void) { return __builtin_cpu_supports("sse4.2"); }

#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>

static uint32_t crc32c_hardware(uint32_t crc, const uint8_t *bytes, size_t length) {
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        crc = __crc32cd(crc, word);
        bytes += 8;
        length -= 8;
    }
    while (length--) crc = __crc32cb(crc, *bytes++);
    return crc;
}

static int crc32c_hardware_available(void) { return 1; }

#else
static uint32_t crc32c_hardware(uint32_t crc, const uint8_t *bytes, size_t length) {
    return crc32c_portable(crc, bytes, length);
}

static int crc32c_hardware_available(void) { return 0; }
#endif

typedef uint32_t (*crc32c_function)(uint32_t, const uint8_t *, size_t);

/// Chosen once, before main: the hardware path, or the table (built here) when the CPU lacks the instruction.
static crc32c_function crc32c_implementation = crc32c_portable;

__attribute__((constructor)) static void crc32c_choose(void) {
    crc32c_build_table();
    if (crc32c_hardware_available()) crc32c_implementation = crc32c_hardware;
}

uint32_t liftledger_crc32c(const void *bytes, size_t length) {
    return ~crc32c_implementation(0xFFFFFFFFu, (const uint8_t *)bytes, length);
}
