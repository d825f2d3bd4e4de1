#!/bin/sh
# Fails when a Swift file outside Sources/LightShowSystem makes an OS call that LightShowSystem owns:
# - anywhere (Sources and Tests): poll(2), read(2), write(2), recv(2), send(2) on a descriptor, or handling EINTR
#   (FileDescriptorIO, Poll, WakeSignal, …);
# - in Sources: socket, bind, connect, listen, accept, open, close, unlink, rename, mkdir, fsync, ioctl, tcgetattr,
#   tcsetattr, timerfd_*, fcntl, pipe, dup, and reading errno or formatting strerror (OwnedDescriptor, Socket,
#   UnixSocket, Directory, FileSystem, AtomicFile, Pipe, TerminalControl, TimerDescriptor, SystemCallError.current).
#   Tests may make these calls themselves: they play raw peers and break things on purpose.
# A line may do it anyway when a comment on it says why: `// os-idiom: REASON`.
# A C call is told from a Swift method of the same name: a method is called on something (`.close()`), declared
# (`func close(`), tried or awaited (C never throws), or takes a label or nothing (`close(discardingPending: true)`,
# `close()`); a C call is bare (or `Glibc.`) with an unlabelled first argument. read/write/recv/send need unlabelled descriptor and buffer arguments.
set -eu
cd "$(dirname "$0")/.."

found=$(find Sources Tests -name '*.swift' -not -path 'Sources/LightShowSystem/*' -print0 | xargs -0 awk '
    BEGIN {
        names = "socket socketpair bind connect listen accept accept4 open openat close unlink unlinkat rename renameat " \
            "mkdir mkdirat fsync fdatasync ioctl tcgetattr tcsetattr timerfd_create timerfd_settime timerfd_gettime " \
            "fcntl pipe pipe2 dup dup2 dup3 strerror"
        count = split(names, calls, " ")
    }
    # True when `code` calls C function `name`: not a method or a declaration, and with an unlabelled first argument.
    function ccall(code, name,    rest, at, before, after) {
        rest = code
        while ((at = index(rest, name "(")) > 0) {
            before = substr(rest, 1, at - 1)
            after = substr(rest, at + length(name) + 1)
            rest = after
            if (before !~ /Glibc\.$/ && before ~ /[.A-Za-z0-9_]$/) continue
            if (before ~ /(func|try[!?]?|await)[ \t]+$/) continue
            if (after ~ /^[ \t]*\)/ || after ~ /^[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*:/) continue
            return 1
        }
        return 0
    }
    /\/\/ os-idiom: [^ ]/ { next }
    {
        code = $0
        sub(/\/\/.*/, "", code)
        bad = code ~ /(^|[^.A-Za-z0-9_]|Glibc\.)poll\(/ ||
            code ~ /(^|[^.A-Za-z0-9_]|Glibc\.)(read|write|recv|send|pread|pwrite|recvfrom)\([^,:]+,[^,:]+,/ ||
            code ~ /(^|[^A-Za-z0-9_])EINTR([^A-Za-z0-9_]|$)/
        if (!bad && FILENAME ~ /^Sources\//) {
            if (code ~ /(^|[^.A-Za-z0-9_]|Glibc\.)errno([^A-Za-z0-9_]|$)/) bad = 1
            for (i = 1; !bad && i <= count; i++) if (ccall(code, calls[i])) bad = 1
        }
        if (bad) printf "%s:%d: %s\n", FILENAME, FNR, $0
    }')
if [ -n "$found" ]; then
    printf "%s\n" "$found"
    echo "check-os-idioms: $(printf "%s\n" "$found" | wc -l) lines above make OS calls outside LightShowSystem;"
    echo "use its owners (FileDescriptorIO, Poll, OwnedDescriptor, UnixSocket, Directory, AtomicFile, SystemCallError, …)"
    echo "or say why on the line: // os-idiom: REASON"
    exit 1
fi
echo "check-os-idioms: no OS calls outside LightShowSystem but commented exceptions"
