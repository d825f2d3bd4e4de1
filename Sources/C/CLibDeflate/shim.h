// libdeflate's SIMD checksums (Adler-32 for the zlib stream, CRC-32 for PNG chunks).
#include <libdeflate.h>
