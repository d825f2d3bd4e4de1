#!/usr/bin/env bash
# Makes the Python virtual environment VENV (Debian's python3 is externally managed, so PyPI packages go in a venv
# of their own) and installs the PyPI requirements given after it (NAME or NAME==VERSION) that it lacks.
# Usage: VENV REQUIREMENT...
set -euo pipefail
venv=$1
shift
[ -x "$venv/bin/python3" ] || python3 -m venv "$venv"
missing=$("$venv/bin/python3" - "$@" <<'PY'
import sys
from importlib import metadata
for requirement in sys.argv[1:]:
    name, _, version = requirement.partition("==")
    try:
        if version and metadata.version(name) != version:
            print(requirement)
    except metadata.PackageNotFoundError:
        print(requirement)
PY
)
[ -z "$missing" ] && exit 0
echo "Installing into $venv:" $missing
# shellcheck disable=SC2086 # one requirement a word
"$venv/bin/python3" -m pip install -q --disable-pip-version-check $missing
