// libpulse's asynchronous API: everything Swift needs imports directly.
#include <pulse/pulseaudio.h>
