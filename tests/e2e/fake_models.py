"""The fake Discord's world and records: the guild, its people and channels, and what the bot
did (messages, attachments, answers to interactions), as plain data the tests inspect."""

from __future__ import annotations

import copy
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.e2e.fake_discord import FakeDiscord

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL, LOADING = 64, 128
COMPONENTS_V2 = 1 << 15

# Permission bits used for the members of the fake guild.
MEMBER_PERMISSIONS = (
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
)  # add reactions, view, send, embed links, attach files, read history, use app commands
MANAGE_CHANNELS = 1 << 4
READ_MESSAGE_HISTORY = 1 << 16
# Threads: what the bot needs to play a match in a thread of its own.
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
THREAD_PERMISSIONS = CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
# Outside the bot's servers: what Discord documents as the app's permissions in a DM or group
# DM between users (the bot's own DM adds external emojis), and the member permission a server
# turns off with "Use External Apps".
EMBED_LINKS, ATTACH_FILES, MENTION_EVERYONE = 1 << 14, 1 << 15, 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
USE_EXTERNAL_APPS = 1 << 50
PRIVATE_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
# Interaction contexts and installation types.
GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1


class Snowflakes:
    """Discord-style ids: milliseconds since 2015 in the high bits, always increasing."""

    def __init__(self) -> None:
        self._last = 0
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
            self._last = max(now, self._last + 1)
            return self._last


def iso(moment: float | None = None) -> str:
    """An ISO 8601 timestamp as Discord writes them."""
    return datetime.fromtimestamp(moment or time.time(), UTC).isoformat()


# ---------------------------------------------------------------------------------- the world


@dataclass(frozen=True)
class User:
    """A Discord user (a person or the bot)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass(frozen=True)
class Channel:
    """A text channel of the fake guild."""

    id: int
    name: str
    position: int
    guild_id: int

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclass
class Thread:
    """A public thread started from a message of a text channel."""

    id: int
    name: str
    parent_id: int
    guild_id: int
    owner_id: int
    starter_message_id: int
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 4320
    created: float = field(default_factory=time.time)
    archived_at: float = field(default_factory=time.time)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": 11,  # PUBLIC_THREAD
            "guild_id": str(self.guild_id),
            "parent_id": str(self.parent_id),
            "owner_id": str(self.owner_id),
            "name": self.name,
            "last_message_id": None,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "rate_limit_per_user": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": iso(self.archived_at),
                "locked": self.locked,
                "create_timestamp": iso(self.created),
            },
        }


@dataclass(frozen=True)
class Place:
    """A channel outside the bot's servers, reached only through a user install: a DM between
    two users (kind 1), the bot's own DM with a user (kind 1, ``bot_dm``), a group DM (kind 3),
    or a text channel (kind 0) of a server the bot is not in (``guild_id``; ``external_apps``
    False where the server turned off "Use External Apps")."""

    id: int
    kind: int
    recipients: tuple[User, ...] = ()
    guild_id: int = 0
    bot_dm: bool = False
    external_apps: bool = True
    name: str = "elsewhere"

    @property
    def context(self) -> int:
        if self.guild_id:
            return GUILD_CONTEXT
        return BOT_DM_CONTEXT if self.bot_dm else PRIVATE_CHANNEL_CONTEXT

    @property
    def app_permissions(self) -> int:
        if self.guild_id:
            return MEMBER_PERMISSIONS  # the channel's permissions for @everyone
        return PRIVATE_APP_PERMISSIONS | (USE_EXTERNAL_EMOJIS if self.bot_dm else 0)

    def payload(self) -> dict[str, Any]:
        if self.guild_id:
            return Channel(self.id, self.name, 0, self.guild_id).payload()
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.kind,
            "flags": 0,
            "last_message_id": None,
            "recipients": [user.payload() for user in self.recipients],
        }
        if self.kind == 3:
            data.update(name=None, icon=None, owner_id=str(self.recipients[0].id))
        return data


class World:
    """The guild the bot sits in: channels, roles, four people and the bot."""

    def __init__(
        self, ids: Snowflakes, *, guild_id: int | None = None, like: World | None = None
    ) -> None:
        """A guild of its own; with ``like``, another guild of the same bot and people (issue
        17: servers on different shards), with ``guild_id`` if given."""
        self.bot: User = like.bot if like else User(ids(), "Jarmo", bot=True)
        self.application_id = self.bot.id  # a bot's user id is its application's id
        self.ann: User = like.ann if like else User(ids(), "ann", "Ann")
        self.bob: User = like.bob if like else User(ids(), "bob", "Bob")
        self.cat: User = like.cat if like else User(ids(), "cat", "Cat")
        # A display name that must never ping.
        self.eve: User = like.eve if like else User(ids(), "eve", "@everyone")
        self.people: tuple[User, ...] = (self.ann, self.bob, self.cat, self.eve)
        self.guild_id = guild_id or ids()
        self.moderator_role = ids()
        self.joined_at = iso()
        names = ["general", *(f"arena-{n}" for n in range(1, 13))]
        self.channels = {
            name: Channel(ids(), name, position, self.guild_id)
            for position, name in enumerate(names)
        }
        # Threads: the threads of the guild, the bot's own permissions in every
        # channel (a test grants THREAD_PERMISSIONS), and the people who left the guild.
        self.threads: dict[int, Thread] = {}
        self.bot_permissions = MEMBER_PERMISSIONS
        self.departed: set[int] = set()

    def channel(self, name: str) -> Channel:
        return self.channels[name]

    def channel_by_id(self, channel_id: int) -> Channel | Thread | None:
        found = next((c for c in self.channels.values() if c.id == channel_id), None)
        return found or self.threads.get(channel_id)

    def user(self, user_id: int) -> User | None:
        return next((u for u in (*self.people, self.bot) if u.id == user_id), None)

    def member(self, user: User, *, with_user: bool = True) -> dict[str, Any]:
        roles = [str(self.moderator_role)] if user is self.cat else []
        data: dict[str, Any] = {
            "roles": roles,
            "nick": None,
            "avatar": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = user.payload()
        return data

    def permissions(self, user: User) -> int:
        return MEMBER_PERMISSIONS | (MANAGE_CHANNELS if user is self.cat else 0)

    def guild_create(self) -> dict[str, Any]:
        """GUILD_CREATE as the gateway sends it after READY. (With only the guilds intent
        Discord would list just the bot's own member; the people are included anyway so a
        client that caches members has them — discord.py drops them without that intent.)"""
        everyone = {
            "id": str(self.guild_id),
            "name": "@everyone",
            "color": 0,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": 0,
            "permissions": str(MEMBER_PERMISSIONS),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        moderators = {**everyone, "id": str(self.moderator_role), "name": "Moderators"}
        moderators.update(position=1, permissions=str(MANAGE_CHANNELS), mentionable=True)
        return {
            "id": str(self.guild_id),
            "name": "Jarmo Club",
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.cat.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": str(self.channel("general").id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "features": [],
            "roles": [everyone, moderators],
            "emojis": [],
            "stickers": [],
            "joined_at": self.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self.people) + 1,
            "max_members": 500000,
            "members": [self.member(u) for u in (*self.people, self.bot)],
            "channels": [c.payload() for c in self.channels.values()],
            "threads": [t.payload() for t in self.threads.values() if not t.archived],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


# ---------------------------------------------------------------------------- what the bot did


@dataclass
class Attachment:
    """A file the bot uploaded with a message."""

    id: int
    filename: str
    data: bytes = field(repr=False)
    content_type: str | None
    description: str | None = None

    def payload(self, base_url: str) -> dict[str, Any]:
        url = f"{base_url}/attachments/{self.id}/{self.filename}"
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }
        if self.description:
            data["description"] = self.description
        return data


@dataclass
class Message:
    """A message as the fake stores it; ``payloads`` keeps what the bot sent, in order."""

    id: int
    channel_id: int
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    pinged: frozenset[int] = frozenset()
    interaction: Interaction | None = field(default=None, repr=False)
    payloads: list[dict[str, Any]] = field(default_factory=list, repr=False)
    edited: bool = False
    deleted: bool = False
    created: float = field(default_factory=time.time)
    nonce: str | None = None  # kept when sent with enforce_nonce (see FakeDiscord._create)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """Every button, in action rows at the top or nested in V2 containers."""
        return [item for item in _walk(self.components) if item.get("type") == 2]

    @property
    def components_v2(self) -> bool:
        return bool(self.flags & COMPONENTS_V2)

    def texts(self) -> list[str]:
        """The contents of the V2 text displays, in order."""
        return [item["content"] for item in _walk(self.components) if item.get("type") == 10]

    def button(self, label: str) -> dict[str, Any]:
        """The button with this label (or custom id); AssertionError if there is none."""
        for item in self.buttons:
            if label in (item.get("label"), item.get("custom_id")):
                return item
        labels = [b.get("label") for b in self.buttons]
        raise AssertionError(f"no button {label!r} on message {self.id}; buttons: {labels}")

    def select_option(self, choice: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The string select holding the option with this value or label, and that option;
        AssertionError if there is none."""
        for item in _walk(self.components):
            for option in item.get("options") or [] if item.get("type") == 3 else []:
                if choice in (option.get("value"), option.get("label")):
                    return item, option
        shown = [
            o.get("label") for i in _walk(self.components) if i.get("type") == 3
            for o in i.get("options") or []
        ]  # fmt: skip
        raise AssertionError(f"no option {choice!r} on message {self.id}; options: {shown}")

    def attachment(self, filename: str) -> Attachment:
        for item in self.attachments:
            if item.filename == filename:
                return item
        names = [a.filename for a in self.attachments]
        raise AssertionError(f"no attachment {filename!r} on message {self.id}; has {names}")

    def api(self, fake: FakeDiscord) -> dict[str, Any]:
        """The message object Discord returns and puts into component interactions."""
        base_url, application_id = fake.base_url, fake.world.application_id
        mentioned = [fake.world.user(uid) for uid in sorted(self.pinged)]
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 20 if self.interaction and self.interaction.type == 2 else 0,
            "content": self.content,
            "author": self.author.payload(),
            "timestamp": iso(self.created),
            "edited_timestamp": iso() if self.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [user.payload() for user in mentioned if user is not None],
            "mention_roles": [],
            "attachments": [a.payload(base_url) for a in self.attachments],
            "embeds": [_resolve_embed(e, self.attachments, base_url) for e in self.embeds],
            "components": _served_components(self.components, self.attachments, base_url),
            "pinned": False,
            "flags": self.flags,
        }
        if self.interaction is not None:
            data["webhook_id"] = str(application_id)
            data["application_id"] = str(application_id)
            data["interaction_metadata"] = {
                "id": str(self.interaction.id),
                "type": self.interaction.type,
                "user": self.interaction.user.payload(),
                "authorizing_integration_owners": {"0": str(self.interaction.channel.guild_id)},
            }
        return data

    def snapshot(self) -> Message:
        """A copy frozen at this moment (later edits do not change it)."""
        twin = copy.copy(self)
        twin.embeds = copy.deepcopy(self.embeds)
        twin.components = copy.deepcopy(self.components)
        twin.attachments = list(self.attachments)
        twin.payloads = list(self.payloads)
        return twin


def _resolve_embed(
    embed: dict[str, Any], attachments: list[Attachment], base_url: str
) -> dict[str, Any]:
    """Discord replaces ``attachment://name`` in embeds with the uploaded file's URL."""
    data = copy.deepcopy(embed)
    data.setdefault("type", "rich")
    for key in ("image", "thumbnail"):
        url = (data.get(key) or {}).get("url") or ""
        if url.startswith("attachment://"):
            name = url.removeprefix("attachment://")
            found = next((a for a in attachments if a.filename == name), None)
            if found is not None:
                data[key] = {"url": found.payload(base_url)["url"], "proxy_url": url}
    return data


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, depth first (containers' children, rows' buttons, accessories)."""
    found = []
    for component in components:
        found.append(component)
        found += _walk(component.get("components") or [])
        if component.get("accessory"):
            found.append(component["accessory"])
    return found


def _served_components(
    components: list[dict[str, Any]], attachments: list[Attachment], base_url: str
) -> list[dict[str, Any]]:
    """The components as Discord serves them: every one numbered (``id``, depth first, where
    the bot gave none) and ``attachment://name`` media resolved to the uploaded file's URL."""
    served = copy.deepcopy(components)
    for number, component in enumerate(_walk(served), start=1):
        component.setdefault("id", number)
        for item in component.get("items") or []:
            media = item.get("media") or {}
            url = media.get("url") or ""
            found = next((a for a in attachments if url == f"attachment://{a.filename}"), None)
            if found is not None:
                link = found.payload(base_url)["url"]
                media.update(url=link, proxy_url=link, content_type=found.content_type)
    return served


@dataclass
class Answer:
    """The bot's first answer to an interaction (its callback)."""

    type: int
    data: dict[str, Any]
    message: Message | None  # the message as the callback left it (types 4, 5, 7)
    elapsed: float  # seconds from dispatch to the callback

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list(self.data.get("choices", []))

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []


@dataclass
class Interaction:
    """One interaction the fake dispatched, and everything the bot did with it."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel | Thread | Place
    payload: dict[str, Any] = field(repr=False)
    label: str
    fake: FakeDiscord = field(repr=False)
    source: Message | None = field(default=None, repr=False)  # whose button was pressed
    sent_at: float | None = None
    answer: Answer | None = field(default=None, repr=False)
    original: Message | None = field(default=None, repr=False)
    followups: list[Message] = field(default_factory=list, repr=False)
    aged: float = 0.0  # seconds added to the token's age (``FakeDiscord.age_interaction``)

    def wait_answer(self, timeout: float = 20.0) -> Answer:
        """The bot's callback; AssertionError if none arrives within ``timeout``."""
        self.fake.wait_until(lambda: self.answer is not None, timeout, f"an answer to {self}")
        assert self.answer is not None
        return self.answer

    def wait_followups(self, count: int = 1, timeout: float = 20.0) -> list[Message]:
        """The first ``count`` follow-up messages (snapshots as they were created)."""
        what = f"{count} follow-up(s) to {self}"
        self.fake.wait_until(lambda: len(self.followups) >= count, timeout, what)
        return self.followups[:count]

    def __str__(self) -> str:
        return f"interaction {self.id} ({self.label} by {self.user.username})"


@dataclass
class Upload:
    """A file part of a multipart request."""

    index: int
    filename: str
    content_type: str | None
    data: bytes = field(repr=False)
    bare: bool = False  # a part named ``file`` (an app's attachment upload), not ``files[n]``


@dataclass
class Request:
    """A REST request the bot made."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    uploads: list[Upload]
    at: float


@dataclass
class ActivityInstance:
    """A running instance of the app's Activity in a channel, and the users in it."""

    id: str
    launch_id: int
    application_id: int
    channel_id: int
    guild_id: int | None
    users: list[int] = field(default_factory=list)

    def payload(self) -> dict[str, Any]:
        """As ``GET /applications/{id}/activity-instances/{instance}`` returns it."""
        kind = "gc" if self.guild_id else "pc"
        where = f"{self.guild_id}-{self.channel_id}" if self.guild_id else f"{self.channel_id}"
        return {
            "application_id": str(self.application_id),
            "instance_id": self.id,
            "launch_id": str(self.launch_id),
            "location": {
                "id": f"{kind}-{where}",
                "kind": kind,
                "channel_id": str(self.channel_id),
                "guild_id": str(self.guild_id) if self.guild_id else None,
            },
            "users": [str(user) for user in self.users],
        }


@dataclass
class AppAttachment:
    """A file a user's access token uploaded for the app (``POST /applications/{id}/attachment``,
    as an Activity does for the share dialog): Discord keeps it briefly on its CDN."""

    id: int
    user: User
    filename: str
    content_type: str
    data: bytes = field(repr=False)

    @property
    def url(self) -> str:
        return f"https://cdn.discordapp.com/ephemeral-attachments/{self.id}/{self.filename}"

    def payload(self) -> dict[str, Any]:
        """The attachment as Discord answers the upload."""
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "content_type": self.content_type,
        }


@dataclass
class OAuthGrant:
    """What the OAuth2 flow of an Activity hands out for one user: the code the page gets
    from ``authorize``, then the access token the server exchanges it for."""

    user: User
    code: str
    access_token: str | None = None
