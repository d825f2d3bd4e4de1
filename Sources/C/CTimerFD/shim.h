// timerfd: part of glibc, but its header isn't in Swift's Glibc module.
#include <sys/timerfd.h>
