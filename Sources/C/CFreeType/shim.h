#include <ft2build.h>
#include FT_FREETYPE_H

// Load flags are macros built from FT_LOAD_TARGET_ and shifts; give Swift plain constants.
static const FT_Int32 lightshow_FT_LOAD_RENDER = FT_LOAD_RENDER;
static const FT_Int32 lightshow_FT_LOAD_DEFAULT = FT_LOAD_DEFAULT;
