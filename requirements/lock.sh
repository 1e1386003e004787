#!/usr/bin/env bash
# Regenerate the lock files from pyproject.toml (and build.in) with uv: `pip install uv`, then
#     requirements/lock.sh              keep the pinned versions that still fit, add what is new
#     requirements/lock.sh --upgrade    move everything to the newest versions that fit
# runtime.lock is what the Docker image installs (with the build backend, see build.in);
# test.lock (the runtime dependencies and the test extra) is what developers and CI install.
# The test lock is constrained by the runtime lock, so the two agree on every package they
# share. Both are universal (any OS, Python 3.11 or newer) and carry the hash of every file,
# so pip installs them in hash-checking mode.
set -euo pipefail
cd "$(dirname "$0")/.."

common=(--universal --python-version 3.11 --generate-hashes --quiet
        --custom-compile-command "requirements/lock.sh")
uv pip compile "${common[@]}" "$@" pyproject.toml requirements/build.in \
    -o requirements/runtime.lock
uv pip compile "${common[@]}" "$@" pyproject.toml --extra test \
    -c requirements/runtime.lock -o requirements/test.lock
