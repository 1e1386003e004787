# Jarmo for Discord in a container. With Docker Compose (compose.yaml): docker compose up -d
# Without it:
#
#   docker build -t jarmo-bot .
#   docker run -d --name jarmo --restart unless-stopped \
#       -e DISCORD_TOKEN=... -v jarmo-data:/data jarmo-bot
#
# /data holds the database (JARMO_DATABASE below), its heartbeat file and, if you add one,
# config.toml: the bot starts in /data and reads config.toml there. A bind-mounted folder must
# be writable by uid 10001. `docker stop` sends SIGTERM, which the bot answers by closing the
# database cleanly. Other commands: `docker run --rm -e DISCORD_TOKEN=... jarmo-bot jarmo-bot sync`,
# or `docker run --rm -it jarmo-bot jarmo-bot play` (no token needed).
#
# The base image is pinned to one Python release. Pinning its digest too
# (python:3.11.14-slim-bookworm@sha256:...) would fix every byte of it; the digest has to be
# looked up in the image registry (`docker buildx imagetools inspect <image>`), which needs
# network access this project's machines do not have, so it is left to whoever builds and
# publishes the image.
FROM python:3.11.14-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore \
    PIP_NO_CACHE_DIR=1 \
    JARMO_DATABASE=/data/jarmo.sqlite3

RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home jarmo \
    && mkdir /data \
    && chown jarmo:jarmo /data

# The dependencies in a layer of their own, rebuilt only when the lock file changes. Every
# package is pinned and checked by hash (requirements/lock.sh makes the lock).
COPY requirements/runtime.lock /tmp/runtime.lock
RUN pip install --no-cache-dir --require-hashes --no-deps -r /tmp/runtime.lock \
    && rm /tmp/runtime.lock

# The bot itself: a code change rebuilds only this layer. Its dependencies and its build
# requirements (setuptools, mypy) come from the lock above. The build stage of this layer: mypyc
# compiles the rules engine and the search to C (setup.py), with a C compiler that is installed
# and removed again within this one RUN, so the image ships no compiler. The compiler comes from
# Debian's current bookworm packages, not pinned: security updates replace pinned versions.
# FriBiDi stays: Pillow's wheel brings libraqm but loads FriBiDi from the system, and without
# it names in Thai, Devanagari, Bengali, Tamil or Khmer are drawn unshaped.
COPY pyproject.toml setup.py README.md LICENSE /src/
COPY bot /src/bot
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev libfribidi0 \
    && pip install --no-cache-dir --no-deps --no-build-isolation /src \
    && apt-get purge -y --auto-remove gcc libc6-dev \
    && rm -rf /src /var/lib/apt/lists/* \
    && python -c "import bot.jarmo.game as g; assert g.__file__.endswith('.so'), g.__file__" \
    && python -c "from PIL import features; assert features.check_feature('raqm')"

USER 10001:10001
WORKDIR /data
VOLUME /data
# Healthy: the bot's heartbeat (rewritten every 30 s) is fresh and says the Discord gateway is
# connected, and the database opens. See `jarmo-bot health --help`.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["jarmo-bot", "health"]
CMD ["jarmo-bot"]
