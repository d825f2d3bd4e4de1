#include <sndfile.h>
