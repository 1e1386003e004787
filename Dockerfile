# Jarmo for Discord in a container.
#
#   docker build -t jarmo-bot .
#   docker run -d --name jarmo --restart unless-stopped \
#       -e DISCORD_TOKEN=... -v jarmo-data:/data jarmo-bot
#
# /data holds the database (JARMO_DATABASE below) and, if you add one, config.toml: the bot
# starts in /data and reads config.toml there. A bind-mounted folder must be writable by
# uid 10001. `docker stop` sends SIGTERM, which the bot answers by closing the database cleanly.
# Other commands: `docker run --rm -e DISCORD_TOKEN=... jarmo-bot jarmo-bot sync`, or
# `docker run --rm -it jarmo-bot jarmo-bot play` (no token needed).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore \
    JARMO_DATABASE=/data/jarmo.sqlite3

COPY pyproject.toml README.md /src/
COPY bot /src/bot
RUN pip install --no-cache-dir /src \
    && rm -rf /src \
    && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home jarmo \
    && mkdir /data \
    && chown jarmo:jarmo /data

USER jarmo
WORKDIR /data
VOLUME /data
CMD ["jarmo-bot"]
