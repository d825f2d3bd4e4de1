// sd-bus from libsystemd. Swift can't import the variadic calls; the client uses their non-variadic twins.
#include <systemd/sd-bus.h>
