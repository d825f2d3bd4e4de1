// Declarations only: the definition comes from libFuzzer when built with -sanitize=fuzzer (make fuzz).
#include "CFuzzer.h"
