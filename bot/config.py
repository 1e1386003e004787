"""The bot's settings: a TOML file, a few environment variables, and defaults.

``load_config()`` finds the file (``--config``, else ``$JARMO_CONFIG``, else ``config.toml`` in
the working directory, else none), checks every value and returns a frozen :class:`BotConfig`.
A mistake in the file, including a misspelt key, raises :class:`ConfigError` naming the file,
the key and what was expected. The token never appears in a message, a log line or a repr.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bot.jarmo import DEFAULT_LAYOUT, RULESETS
from bot.jarmo.layouts import RETIRED_LAYOUTS
from bot.service import ServiceConfig
from bot.service.shards import ShardSet
from bot.service.timecontrol import TimeControlError, parse_time_per_move

CONFIG_ENV = "JARMO_CONFIG"
TOKEN_ENV = "DISCORD_TOKEN"
DATABASE_ENV = "JARMO_DATABASE"
DATABASE_URL_ENV = "JARMO_DATABASE_URL"  # the [database] part: PostgreSQL
CLIENT_SECRET_ENV = "JARMO_CLIENT_SECRET"  # the Activity's OAuth2 secret: never in a file
_DATABASE_SCHEMES = ("postgresql", "postgres")
DEFAULT_CONFIG_FILE = "config.toml"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
EXPIRY_RANGE = (30, 86_400)
MAX_PLIES_RANGE = (10, 1_000)
VACATION_DAYS_RANGE = (0, 366)  # 0: no vacations
WORKERS_ENV = "JARMO_COMPUTER_WORKERS"
WORKERS_RANGE = (1, 64)
SHARD_COUNT_ENV = "JARMO_SHARD_COUNT"
SHARD_IDS_ENV = "JARMO_SHARD_IDS"
SHARD_COUNT_RANGE = (1, 16_384)


class ConfigError(ValueError):
    """The configuration cannot be used. ``source`` is the file (or environment variable) and
    ``key`` the offending key as ``section.name``, when there is one."""

    def __init__(self, source: str, problem: str, *, key: str | None = None) -> None:
        self.source = source
        self.key = key
        self.problem = problem
        where = f"{source}: {key}" if key else source
        super().__init__(f"{where}: {problem}")


@dataclass(frozen=True)
class WebConfig:
    """``[web]``: the live board, served by the bot's process when ``enabled``."""

    enabled: bool = False
    address: str = "127.0.0.1"
    port: int = 8080
    public_url: str | None = None  # what links to the live board start with
    activity: bool = False  # the Discord Activity (the "Play live" button)
    client_id: int | None = None
    # The application's OAuth2 client secret, from the environment only; never shown.
    client_secret: str | None = field(default=None, repr=False)

    @property
    def activity_ready(self) -> bool:
        """Whether the Activity can sign players in: on, with its application's id and secret."""
        return self.enabled and self.activity and bool(self.client_id and self.client_secret)


@dataclass(frozen=True, repr=False)
class BotConfig:
    """Everything the bot reads at start-up. Paths are absolute once loaded by ``load_config``."""

    token: str | None = None
    database: Path = Path("data/jarmo.sqlite3")
    # [database] url / $JARMO_DATABASE_URL: a PostgreSQL server instead of the SQLite file
    database_url: str | None = None
    dev_guild_id: int | None = None
    challenge_expiry_seconds: int = 600
    default_ruleset: str = "classic"
    max_plies: int = 200
    time_per_move_seconds: int | None = None  # [game] time_per_move; None: no limit
    vacation_days_per_year: int = 14  # [game] vacation_days_per_year
    log_level: str = "INFO"
    boards_dir: Path = Path("jarmo-boards")
    # [discord] threads: whether an accepted challenge's match moves into a thread of its own,
    # on servers that have not chosen (/jarmo server threads).
    threads: bool = True
    # [discord] tournament_role: members with this role run tournaments, besides
    # those who can manage the server.
    tournament_role_id: int | None = None
    computer_workers: int = field(default_factory=lambda: _cores())  # [computer] workers
    # [discord] shard_count / shard_ids: the shards this process runs. None: every
    # shard, as many as Discord recommends.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # [health] heartbeat: the file the running bot rewrites and `jarmo-bot health` reads.
    # None: the default of heartbeat_file.
    heartbeat: Path | None = None
    web: WebConfig = field(default_factory=WebConfig)  # [web]
    # Lines to warn about at start: settings that are still read but no longer do anything.
    warnings: tuple[str, ...] = ()
    # Where the token came from, for messages about it: "DISCORD_TOKEN" or "<file>: discord.token".
    token_source: str = f"the environment variable {TOKEN_ENV}"

    def service_config(self) -> ServiceConfig:
        """The knobs of :class:`bot.service.JarmoService`."""
        return ServiceConfig(
            challenge_expiry_seconds=self.challenge_expiry_seconds,
            default_ruleset=self.default_ruleset,
            max_plies=self.max_plies,
            time_per_move_seconds=self.time_per_move_seconds,
            vacation_days_per_year=self.vacation_days_per_year,
        )

    def shards(self) -> ShardSet:
        """The servers whose background work this process does: those of its shards."""
        if self.shard_count is None:
            return ShardSet.every()
        return ShardSet.of(self.shard_count, self.shard_ids)

    @property
    def store_target(self) -> str | Path:
        """What the store opens: the PostgreSQL URL when one is configured, else the file."""
        return self.database_url or self.database

    @property
    def heartbeat_file(self) -> Path:
        """Where the running bot keeps its heartbeat and ``jarmo-bot health`` looks for it:
        ``[health] heartbeat``, else beside the SQLite file; on PostgreSQL (a process's own
        state, not the shared database's) :func:`own_heartbeat` in the working directory
        (``load_config`` puts it in the configuration file's folder)."""
        if self.heartbeat is not None:
            return self.heartbeat
        if self.database_url:
            return own_heartbeat(Path.cwd(), self.shard_ids)
        return heartbeat_beside(self.database)

    def __repr__(self) -> str:
        shown = []
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "token":
                shown.append(f"token={'<hidden>' if value else None}")
            elif f.name == "database_url" and value:
                shown.append(f"database_url={_without_password(value)!r}")
            else:
                shown.append(f"{f.name}={value!r}")
        return f"BotConfig({', '.join(shown)})"


def heartbeat_beside(database: Path) -> Path:
    """The heartbeat of a bot on the SQLite file ``database``: ``<database>.health``."""
    return database.with_name(database.name + ".health")


def own_heartbeat(folder: Path, shard_ids: tuple[int, ...] | None) -> Path:
    """A heartbeat without a database file to sit beside: ``jarmo-bot.health`` in ``folder``,
    named after the process's shards when it runs some of them (processes of a cluster that
    share a folder each keep their own)."""
    shards = "".join(f"-{shard}" for shard in sorted(shard_ids or ()))
    return folder / f"jarmo-bot{'-shards' if shards else ''}{shards}.health"


def load_config(
    path: str | Path | None = None, *, env: Mapping[str, str] = os.environ
) -> BotConfig:
    """Read the configuration file (if any), apply the environment, check everything.

    ``path`` None means ``$JARMO_CONFIG``, else ``config.toml`` in the working directory if it
    exists, else the defaults. ``$DISCORD_TOKEN`` wins over ``discord.token`` and
    ``$JARMO_DATABASE`` over ``database.path``, ``$JARMO_DATABASE_URL`` over ``database.url``.
    Relative paths in the file are taken from the file's folder, and so are the defaults (the
    database, the boards' folder, and on PostgreSQL the heartbeat); other relative paths from
    the working directory.

    Raises ``ConfigError``.
    """
    file = _find_file(path, env)
    data = _read_toml(file) if file else {}
    source = str(file) if file else "the default configuration"
    values = _parse(data, source)
    base = file.parent if file else Path.cwd()
    for name in ("database", "boards_dir", "heartbeat"):
        if name in values:
            values[name] = _absolute(values[name], base)
    if "token" in values:
        values["token_source"] = f"discord.token in {source}"
    values.update(_from_env(env))  # the environment's token, if any, wins
    if env.get(TOKEN_ENV, "").strip():
        values["token_source"] = f"the environment variable {TOKEN_ENV}"
    _check_shards(values, source, env)
    web = {
        name[len("web_") :]: values.pop(name) for name in list(values) if name.startswith("web_")
    }
    web["client_secret"] = env.get(CLIENT_SECRET_ENV, "").strip() or None
    values["web"] = WebConfig(**web)
    values["warnings"] = _retired_layout_warning(values.pop("retired_layout", None), source)
    values.setdefault("database", _absolute(BotConfig.database, base))
    values.setdefault("boards_dir", _absolute(BotConfig.boards_dir, base))
    if "heartbeat" not in values and values.get("database_url"):
        values["heartbeat"] = own_heartbeat(base, values.get("shard_ids"))
    return BotConfig(**values)


# -- finding and reading the file -------------------------------------------------------------


def _find_file(path: str | Path | None, env: Mapping[str, str]) -> Path | None:
    if path is not None and str(path).strip():
        return _absolute(Path(path), Path.cwd())
    named = env.get(CONFIG_ENV, "").strip()
    if named:
        return _absolute(Path(named), Path.cwd())
    local = Path.cwd() / DEFAULT_CONFIG_FILE
    return local if local.is_file() else None


def _read_toml(file: Path) -> dict[str, Any]:
    try:
        with file.open("rb") as stream:
            return tomllib.load(stream)
    except FileNotFoundError:
        raise ConfigError(str(file), "no such configuration file") from None
    except OSError as exc:
        raise ConfigError(str(file), f"cannot read the file ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise ConfigError(str(file), "the file is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        # tomllib's messages give a line and column, never the text of the line.
        raise ConfigError(str(file), f"not valid TOML: {exc}") from None


def _retired_layout_warning(layout: str | None, source: str) -> tuple[str, ...]:
    if layout not in RETIRED_LAYOUTS:
        return ()
    return (
        f"{source}: game.default_layout = {layout!r} is ignored: every new game is played on "
        f"the published board ({DEFAULT_LAYOUT!r}); games stored on the {layout!r} board keep "
        "it. Remove the key to silence this warning.",
    )


def _absolute(path: Path, base: Path) -> Path:
    path = path.expanduser()
    return path if path.is_absolute() else base / path


# -- checking values ---------------------------------------------------------------------------


class _Invalid(Exception):
    """A value did not fit; ``expected`` says what would."""

    def __init__(self, expected: str) -> None:
        self.expected = expected
        super().__init__(expected)


Reader = Callable[[object], object]


def _integer(low: int | None = None, high: int | None = None) -> Reader:
    if low is not None and high is not None:
        expected = f"an integer from {low} to {high}"
    else:
        expected = "a positive integer" if low == 1 else "an integer"

    def read(value: object) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise _Invalid(expected)
        if (low is not None and value < low) or (high is not None and value > high):
            raise _Invalid(expected)
        return value

    return read


def _choice(choices: tuple[str, ...], *, upper: bool = False) -> Reader:
    expected = "one of " + ", ".join(f'"{c}"' for c in choices)

    def read(value: object) -> str:
        if not isinstance(value, str):
            raise _Invalid(expected)
        text = value.strip().upper() if upper else value.strip().lower()
        if text not in choices:
            raise _Invalid(expected)
        return text

    return read


def _text(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Invalid("a non-empty string")
    return value.strip()


def _time_per_move(value: object) -> int | None:
    expected = 'a time per move such as "30m", "2h", "1d" (1 minute to 14 days) or "none"'
    if not isinstance(value, str):
        raise _Invalid(expected)
    try:
        return parse_time_per_move(value)
    except TimeControlError:
        raise _Invalid(expected) from None


def _boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise _Invalid("true or false, without quotes")
    return value


def _path(value: object) -> Path:
    if not isinstance(value, str) or not value.strip():
        raise _Invalid("a non-empty string holding a file or folder path")
    return Path(value.strip())


def _database_url(value: object) -> str:
    expected = 'a PostgreSQL URL such as "postgresql://user:password@host:5432/jarmo"'
    if not isinstance(value, str) or urlsplit(value.strip()).scheme not in _DATABASE_SCHEMES:
        raise _Invalid(expected)
    return value.strip()


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")))


def _token(value: object) -> str:
    expected = 'the bot token as a string, alone (no "Bot " prefix, no spaces)'
    if not isinstance(value, str) or not value.strip() or any(ch.isspace() for ch in value.strip()):
        raise _Invalid(expected)
    return value.strip()


def _guild_id(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise _Invalid("a server ID as a number without quotes, e.g. 123456789012345678")
    return value


@dataclass(frozen=True)
class _Key:
    field: str
    read: Reader
    secret: bool = False


SCHEMA: dict[str, dict[str, _Key]] = {
    "discord": {
        "token": _Key("token", _token, secret=True),
        "dev_guild_id": _Key("dev_guild_id", _guild_id),
    },
    "database": {
        "path": _Key("database", _path),
        "url": _Key("database_url", _database_url, secret=True),
    },
    "game": {
        "challenge_expiry_seconds": _Key("challenge_expiry_seconds", _integer(*EXPIRY_RANGE)),
        "default_ruleset": _Key("default_ruleset", _choice(tuple(RULESETS))),
        # Every new game is on the published board; a file from before still loads.
        "default_layout": _Key(
            "retired_layout", _choice((DEFAULT_LAYOUT, *sorted(RETIRED_LAYOUTS)))
        ),
        "max_moves": _Key("max_plies", _integer(*MAX_PLIES_RANGE)),
        "max_plies": _Key("max_plies", _integer(*MAX_PLIES_RANGE)),  # the older name
        "time_per_move": _Key("time_per_move_seconds", _time_per_move),
        "vacation_days_per_year": _Key("vacation_days_per_year", _integer(*VACATION_DAYS_RANGE)),
    },
    "logging": {"level": _Key("log_level", _choice(LOG_LEVELS, upper=True))},
    "console": {"boards_dir": _Key("boards_dir", _path)},
    "computer": {"workers": _Key("computer_workers", _integer(*WORKERS_RANGE))},
    "health": {"heartbeat": _Key("heartbeat", _path)},
}
# A thread per match.
SCHEMA["discord"]["threads"] = _Key("threads", _boolean)


# Who runs tournaments besides server managers.
def _role_id(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise _Invalid("a role ID as a number without quotes, e.g. 123456789012345678")
    return value


SCHEMA["discord"]["tournament_role"] = _Key("tournament_role_id", _role_id)


def _public_url(value: object) -> str:
    expected = 'an https:// or http:// address such as "https://jarmo.example.org"'
    if not isinstance(value, str) or urlsplit(value.strip()).scheme not in ("https", "http"):
        raise _Invalid(expected)
    return value.strip().rstrip("/")


SCHEMA["web"] = {
    "enabled": _Key("web_enabled", _boolean),
    "address": _Key("web_address", _text),
    "port": _Key("web_port", _integer(0, 65_535)),
    "public_url": _Key("web_public_url", _public_url),
    "activity": _Key("web_activity", _boolean),
    "client_id": _Key("web_client_id", _guild_id),
}


def _parse(data: Mapping[str, object], source: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    set_by: dict[str, str] = {}  # field -> the key that set it (a field may have two names)
    for section, table in data.items():
        keys = SCHEMA.get(section)
        if keys is None:
            raise ConfigError(source, _unknown_section(section), key=section)
        if not isinstance(table, dict):
            raise ConfigError(
                source, f"expected a table: write [{section}] on a line of its own", key=section
            )
        for name, value in table.items():
            key = keys.get(name)
            dotted = f"{section}.{name}"
            if key is None:
                raise ConfigError(source, _unknown_key(section, name), key=dotted)
            if key.field in set_by:
                problem = f"{set_by[key.field]} already sets this; keep only one of the two"
                raise ConfigError(source, problem, key=dotted)
            set_by[key.field] = dotted
            try:
                values[key.field] = key.read(value)
            except _Invalid as bad:
                got = f"{_type_name(value)} (not shown)" if key.secret else _describe(value)
                raise ConfigError(
                    source, f"expected {bad.expected}, got {got}", key=dotted
                ) from None
    return values


def _unknown_section(section: str) -> str:
    homes = [f"{s}.{section}" for s, keys in SCHEMA.items() if section in keys]
    if homes:
        return f"unknown top-level key; did you mean {homes[0]} (under [{homes[0].split('.')[0]}])?"
    return "unknown section" + _did_you_mean(section, SCHEMA, prefix="[", suffix="]")


def _unknown_key(section: str, name: str) -> str:
    known = SCHEMA[section]
    hint = _did_you_mean(name, known, prefix=f"{section}.")
    listing = ", ".join(known)
    return f"unknown key{hint} (keys of [{section}]: {listing})"


def _did_you_mean(
    word: str, options: Mapping[str, object], *, prefix: str = "", suffix: str = ""
) -> str:
    close = difflib.get_close_matches(word, list(options), n=1)
    return f"; did you mean {prefix}{close[0]}{suffix}?" if close else ""


def _type_name(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return {int: "an integer", float: "a number", str: "a string"}.get(type(value), "a date/time")


def _describe(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, int | float):
        return str(value)
    return _type_name(value)


# -- environment -------------------------------------------------------------------------------


def _from_env(env: Mapping[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    token = env.get(TOKEN_ENV, "")
    if token.strip():
        try:
            values["token"] = _token(token)
        except _Invalid as bad:
            raise ConfigError(
                f"environment variable {TOKEN_ENV}", f"expected {bad.expected}"
            ) from None
    database = env.get(DATABASE_ENV, "").strip()
    if database:
        values["database"] = _absolute(Path(database), Path.cwd())
    url = env.get(DATABASE_URL_ENV, "").strip()
    if url:
        try:
            values["database_url"] = _database_url(url)
        except _Invalid as bad:
            raise ConfigError(
                f"environment variable {DATABASE_URL_ENV}", f"expected {bad.expected}"
            ) from None
    values.update(_computer_from_env(env))
    values.update(_shards_from_env(env))
    return values


# -- [computer] ----------------------------------------------------------------------------------


def _cores() -> int:
    """The cores this process may run on: the default number of search processes."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def _computer_from_env(env: Mapping[str, str]) -> dict[str, Any]:
    text = env.get(WORKERS_ENV, "").strip()
    if not text:
        return {}
    expected = f"an integer from {WORKERS_RANGE[0]} to {WORKERS_RANGE[1]}"
    try:
        workers = _integer(*WORKERS_RANGE)(int(text))
    except (ValueError, _Invalid):
        raise ConfigError(f"environment variable {WORKERS_ENV}", f"expected {expected}") from None
    return {"computer_workers": workers}


# -- [discord] shards --------------------------------------------------------------------------


def _shard_ids(value: object) -> tuple[int, ...]:
    expected = "a list of shard numbers such as [0, 2]"
    if not isinstance(value, list) or not value:
        raise _Invalid(expected)
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in value):
        raise _Invalid(expected)
    return tuple(value)


SCHEMA["discord"]["shard_count"] = _Key("shard_count", _integer(*SHARD_COUNT_RANGE))
SCHEMA["discord"]["shard_ids"] = _Key("shard_ids", _shard_ids)


def _shards_from_env(env: Mapping[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    count = env.get(SHARD_COUNT_ENV, "").strip()
    if count:
        expected = f"an integer from {SHARD_COUNT_RANGE[0]} to {SHARD_COUNT_RANGE[1]}"
        try:
            values["shard_count"] = _integer(*SHARD_COUNT_RANGE)(int(count))
        except (ValueError, _Invalid):
            raise ConfigError(
                f"environment variable {SHARD_COUNT_ENV}", f"expected {expected}"
            ) from None
    ids = env.get(SHARD_IDS_ENV, "").strip()
    if ids:
        try:
            values["shard_ids"] = _shard_ids([int(part) for part in ids.split(",")])
        except (ValueError, _Invalid):
            raise ConfigError(
                f"environment variable {SHARD_IDS_ENV}",
                'expected shard numbers separated by commas, such as "0,2"',
            ) from None
    return values


def _check_shards(values: Mapping[str, Any], source: str, env: Mapping[str, str]) -> None:
    """Shard ids need a count, each below it and none twice (Discord would refuse the rest
    of the connection, or two processes would both serve one shard)."""
    ids: tuple[int, ...] | None = values.get("shard_ids")
    if ids is None:
        return
    where, key = (
        (f"environment variable {SHARD_IDS_ENV}", None)
        if env.get(SHARD_IDS_ENV, "").strip()
        else (source, "discord.shard_ids")
    )
    count: int | None = values.get("shard_count")
    if count is None:
        problem = f"shard ids need a shard count: set {SHARD_COUNT_ENV} or discord.shard_count"
        raise ConfigError(where, problem, key=key)
    outside = sorted({i for i in ids if not 0 <= i < count})
    if outside:
        problem = f"shard {outside[0]} is outside 0..{count - 1} (the shard count is {count})"
        raise ConfigError(where, problem, key=key)
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ConfigError(where, f"shard {twice[0]} is listed twice", key=key)
