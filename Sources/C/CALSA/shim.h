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

/* The top of ALSA's configuration, with a reference the caller drops with snd_config_unref: what the library would
   read to open a PCM, for looking a name's definition up without opening it. NULL when it can't be read. Swift can't
   read the global snd_config safely, hence this helper. */
static inline snd_config_t *lightshow_alsa_config_ref(void) {
    snd_config_t *top = NULL;
    if (snd_config_update_ref(&top) < 0) return NULL;
    return top;
}
