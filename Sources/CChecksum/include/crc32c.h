#ifndef LIFTLEDGER_CRC32C_H
#define LIFTLEDGER_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) of `length` bytes, as used by iSCSI, ext4 and the
/// `crc32c` Python package: liftledger_crc32c("123456789", 9) == 0xE3069283.
/// Uses the CPU's CRC32 instruction where there is one (x86-64 SSE4.2, ARMv8 CRC), else a table.
uint32_t liftledger_crc32c(const void *bytes, size_t length);

#endif
