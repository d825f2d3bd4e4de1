#include <zlib.h>

// deflateInit2 is a macro that passes the library version and struct size; Swift can't call macros.
static inline int lightshow_deflateInit2(z_streamp stream, int level, int windowBits, int memLevel, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, strategy);
}

// Likewise inflateInit2 (used by the tests to check the encoder's raw deflate output).
static inline int lightshow_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
