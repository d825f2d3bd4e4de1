// libcurl's types and constants only: the functions are looked up at run time (CurlLibrary), only when a Hue output
// is configured or a bridge is paired.
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift can't call: these call the looked-up function
// through its variadic type, so the arguments go as C passes them.
typedef CURLcode (*lightshow_curl_setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*lightshow_curl_getinfo_function)(CURL *, CURLINFO, ...);

static inline CURLcode lightshow_curl_setopt_long(void *function, CURL *handle, CURLoption option, long value) {
    return ((lightshow_curl_setopt_function)function)(handle, option, value);
}

static inline CURLcode lightshow_curl_setopt_pointer(void *function, CURL *handle, CURLoption option, const void *value) {
    return ((lightshow_curl_setopt_function)function)(handle, option, value);
}

static inline CURLcode lightshow_curl_getinfo_long(void *function, CURL *handle, CURLINFO info, long *value) {
    return ((lightshow_curl_getinfo_function)function)(handle, info, value);
}
