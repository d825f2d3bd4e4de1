#include <alsa/asoundlib.h>

/* alsa-lib prints plugin errors (such as PulseAudio's "Unable to connect") straight to stderr. While a lost device
   is retried every few seconds that would log each try; the capture loop logs once per state change instead.
   The handler type is variadic, which Swift can't implement, hence these helpers. */
static inline void lightshow_alsa_silent_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/* quiet != 0: drop alsa-lib's error messages; 0: restore its default handler. */
static inline void lightshow_alsa_quiet_errors(int quiet) {
    snd_lib_error_set_handler(quiet ? lightshow_alsa_silent_error : NULL);
}
