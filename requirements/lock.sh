#!/usr/bin/env bash
# Regenerate the lock files from pyproject.toml (and build.in) with uv: `pip install uv`, then
#     requirements/lock.sh              keep the pinned versions that still fit, add what is new
#     requirements/lock.sh --upgrade    move everything to the newest versions that fit
# runtime.lock is what the Docker image and the README's first line install; test.lock (the
# runtime dependencies and the test extra) is what developers and CI install. Both hold the
# build backend and mypyc (build.in), since every install builds without isolation.
# The test lock is constrained by the runtime lock, so the two agree on every package they
# share. Both are universal (any OS, Python 3.11 or newer) and carry the hash of every file,
# so pip installs them in hash-checking mode.
set -euo pipefail
cd "$(dirname "$0")/.."

common=(--universal --python-version 3.11 --generate-hashes --quiet
        --custom-compile-command "requirements/lock.sh")
uv pip compile "${common[@]}" "$@" pyproject.toml requirements/build.in \
    -o requirements/runtime.lock
uv pip compile "${common[@]}" "$@" pyproject.toml requirements/build.in --extra test \
    -c requirements/runtime.lock -o requirements/test.lock
