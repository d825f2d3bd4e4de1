#!/bin/sh
# Fails when the last build left a compiler warning in our own sources (Sources/ and Tests/, not the dependencies
# in .build/checkouts). It reads the diagnostics the compiler keeps for every source file it compiled
# (.build/<configuration>/<Module>.build/*.dia), so an incremental build is checked as fully as a clean one: a
# file that was not recompiled keeps the diagnostics of its last compile. Run it after `swift build`.
set -eu
cd "$(dirname "$0")/.."
exec python3 - "$PWD" "$@" <<'PYTHON'
import glob, os, re, sys

root = sys.argv[1]
# The configurations named, else every one that has been built.
configurations = sys.argv[2:] or [c for c in ("debug", "release") if os.path.isdir(os.path.join(root, ".build", c))]
# Our targets: the folders of Sources/, Tests/ and Tests/Fuzz/ (a clean file's diagnostics name no file), named as
# SwiftPM names their modules: `lightshow-web` builds `lightshow_web`.
modules = {os.path.basename(d).replace("-", "_") for d in glob.glob(os.path.join(root, "Sources", "*"))
           + glob.glob(os.path.join(root, "Tests", "*")) + glob.glob(os.path.join(root, "Tests", "Fuzz", "*")) if os.path.isdir(d)}
# A source's path among the diagnostics' bytes. The bitstream packs its strings against other bytes, and those can
# be printable: the path is found where it starts and ends, not taken as the whole run of printable bytes.
source_path = re.compile("(" + re.escape(root) + r"/(?:Sources|Tests)/[\x20-\x7e]*?\.swift)")
problems = []
checked = 0
for configuration in configurations:
    for dia in sorted(glob.glob(os.path.join(root, ".build", configuration, "*.build", "*.dia"))):
        if os.path.basename(os.path.dirname(dia))[:-len(".build")] not in modules:
            continue
        checked += 1
        with open(dia, "rb") as file:
            texts = [t.decode() for t in re.findall(rb"[\x20-\x7e]{8,}", file.read())]
        source = next((m.group(1) for t in texts for m in [source_path.search(t)] if m and os.path.exists(m.group(1))), None)
        if source is None or not os.path.exists(source):
            continue  # clean, or the diagnostics of a file that no longer exists
        if os.path.getmtime(source) > os.path.getmtime(dia):
            continue  # changed since this configuration last compiled it: its next build tells
        messages = [t for t in texts if "/" + os.path.basename(source) not in t and not t.startswith("DIAG")]
        if messages:
            # A whole-module build (release) keeps one file of diagnostics for the module.
            module = os.path.basename(os.path.dirname(dia))[:-len(".build")]
            where = module if os.path.basename(dia) == module + ".dia" else os.path.relpath(source, root)
            problems.append(f"{where} ({configuration}): " + "; ".join(messages))
if checked == 0:
    sys.exit("check-warnings: no compiled sources found in .build/" + "/".join(configurations) + "; build first")
if problems:
    print("\n".join(problems), flush=True)
    sys.exit(f"check-warnings: {len(problems)} of {checked} compiled files have compiler warnings")
print(f"check-warnings: no compiler warnings in {checked} compiled files of Sources/ and Tests/")
PYTHON
