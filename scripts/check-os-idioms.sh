#!/bin/sh
# Fails when a Swift file outside Sources/LightShowSystem calls poll(2), read(2), write(2), recv(2) or send(2) on a
# descriptor, or handles EINTR itself: those belong to LightShowSystem (FileDescriptorIO, Poll, WakeSignal, …),
# the one home of OS idioms. A line may do it anyway when a comment on it says why: `// os-idiom: REASON`.
# A descriptor call is told from a Swift method of the same name by its unlabelled descriptor and buffer arguments.
set -eu
cd "$(dirname "$0")/.."
found=$(find Sources Tests -name '*.swift' -not -path 'Sources/LightShowSystem/*' -print0 | xargs -0 awk '
    /\/\/ os-idiom: [^ ]/ { next }
    {
        code = $0
        sub(/\/\/.*/, "", code)
        if (code ~ /(^|[^.A-Za-z0-9_]|Glibc\.)poll\(/ ||
            code ~ /(^|[^.A-Za-z0-9_]|Glibc\.)(read|write|recv|send|pread|pwrite|recvfrom)\([^,:]+,[^,:]+,/ ||
            code ~ /(^|[^A-Za-z0-9_])EINTR([^A-Za-z0-9_]|$)/)
            printf "%s:%d: %s\n", FILENAME, FNR, $0
    }')
if [ -n "$found" ]; then
    printf "%s\n" "$found"
    echo "check-os-idioms: the lines above call poll/read/write/recv/send or handle EINTR outside LightShowSystem;"
    echo "use FileDescriptorIO, Poll, WakeSignal, … or say why on the line: // os-idiom: REASON"
    exit 1
fi
echo "check-os-idioms: no descriptor I/O, poll or EINTR outside LightShowSystem"
