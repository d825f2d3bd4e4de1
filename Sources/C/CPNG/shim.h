#include <png.h>

// The simplified API (png_image_*) returns error codes instead of longjmp-ing; these macros give Swift its constants.
static const png_uint_32 lightshow_PNG_IMAGE_VERSION = PNG_IMAGE_VERSION;
static const png_uint_32 lightshow_PNG_FORMAT_RGB = PNG_FORMAT_RGB;
