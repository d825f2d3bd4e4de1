#!/bin/sh
# Prints a `swift test --skip` pattern for every test that starts an outside process: the IntegrationTests target
# (the real executable), suites tagged as needing a component (Tests/TestSupport/TestTags.swift), and suites in
# files that launch a program through TestSupport or Foundation's Process (or the daemon's web server process).
# A file's suites go together: a suite that starts nothing belongs in a file of its own. `make test-unit` runs the
# rest.
set -eu
cd "$(dirname "$0")/.."
launching='Launch\.|ExternalTool|WLEDSync(Decoder|Receiver|Peer)|LightshowProcess|RunningLightshow|DaemonProcess|PipeWireServer|PulseAudioServer|MPDServer|TmuxSession|SessionBus|NetworkNamespace|ScriptedPlayer|OLAReceiver|Process\(\)|DaemonWeb\('
files=$( { grep -rlE "$launching" Tests --include='*.swift'; grep -rlE '@Suite\([^{]*\.tags\(' Tests --include='*.swift'; } \
    | grep -vE '^Tests/(TestSupport|IntegrationTests|Fuzz|Benchmarks|Soak)/' | sort -u)
suites=$(for file in $files; do grep -hoE '^@Suite[^{]*struct [A-Za-z0-9_]+|^struct [A-Za-z0-9_]+Tests' "$file" | sed 's/.*struct //'; done | sort -u | paste -sd'|')
printf '%s\n' "^IntegrationTests\\.${suites:+|\\.($suites)/}"
