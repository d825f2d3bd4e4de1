// SO_PEERCRED's credentials. Swift's Glibc module, built without _GNU_SOURCE, leaves struct ucred out, and defining
// _GNU_SOURCE here would make this module's view of glibc differ from Swift's: the struct is spelled out instead,
// laid out as the kernel's (pid, uid, gid).
#include <sys/socket.h>
#include <sys/types.h>

struct lightshow_peer_credentials { pid_t pid; uid_t uid; gid_t gid; };

// The process that connected the Unix socket `fd`, as the kernel recorded it at connect time; 0 when unknown.
static inline pid_t lightshow_socket_peer_pid(int fd) {
    struct lightshow_peer_credentials credentials;
    socklen_t size = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return 0;
    return credentials.pid;
}
