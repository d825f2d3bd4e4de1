// libmosquitto's client API: types and constants only; the functions are looked up at run time (MosquittoLibrary).
#include <mosquitto.h>
