// OpenSSL's types and constants only: the functions are looked up at run time (OpenSSLLibrary), only when a Hue
// output is configured.
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
