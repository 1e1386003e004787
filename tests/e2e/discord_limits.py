"""Discord's documented limits, as checks the fake applies to everything the bot sends.

Each ``check_*`` function returns a list of problems (empty when the payload is fine), worded
like Discord's own 400 answers so that a failing test says what Discord would have refused.
Sources: the developer documentation pages "Application Commands" (naming, option types,
limits), "Receiving and Responding" (callback types, autocomplete) and "Message Resource"
(content, embeds, components, allowed mentions).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# Application command types and option types.
CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND = 1, 2, 3
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
OPTION_TYPES = frozenset(range(1, 12))
WITH_CHOICES = frozenset({STRING, INTEGER, NUMBER})

MAX_COMMANDS = {CHAT_INPUT: 100, USER_COMMAND: 15, MESSAGE_COMMAND: 15}
MAX_NAME, MAX_DESCRIPTION, MAX_OPTIONS, MAX_CHOICES = 32, 100, 25, 25
MAX_CHOICE_NAME, MAX_CHOICE_STRING = 100, 100
MAX_COMMAND_CHARACTERS = 4000  # names, descriptions and choices of one command, longest locale
MAX_STRING_OPTION_LENGTH = 6000
SAFE_INTEGER = 2**53

# Messages.
MAX_CONTENT, MAX_EMBEDS, MAX_EMBED_TOTAL = 2000, 10, 6000
MAX_ATTACHMENT_DESCRIPTION = 1024  # a file's (or a media gallery item's) alternative text
EMBED_LIMITS = {"title": 256, "description": 4096}
MAX_FIELDS, MAX_FIELD_NAME, MAX_FIELD_VALUE, MAX_FOOTER, MAX_AUTHOR = 25, 256, 1024, 2048, 256
MAX_ROWS, MAX_ROW_ITEMS, MAX_CUSTOM_ID, MAX_LABEL = 5, 5, 100, 80
MAX_BUTTON_URL = 512  # a link button's url
ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
MAX_SELECT_OPTIONS, MAX_OPTION_TEXT, MAX_PLACEHOLDER = 25, 100, 150
LINK_STYLE = 5
# Flags a bot may set on a message it sends or edits.
SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, COMPONENTS_V2 = 4, 64, 4096, 32768
SETTABLE_FLAGS = SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2
MENTION_PARSE = frozenset({"users", "roles", "everyone"})


def valid_name(name: object) -> bool:
    """CHAT_INPUT names: ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, and the lowercase
    form of every letter that has one."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        return False
    for ch in name:
        if ch in "-_'":
            continue
        category = unicodedata.category(ch)
        if category[0] not in "LN" and category not in ("Mn", "Mc"):  # Devanagari/Thai marks
            return False
        if ch != ch.lower():
            return False
    return True


def check_commands(commands: object) -> list[str]:
    """A bulk overwrite (``PUT .../commands``): a list of commands, each valid, names unique
    per type, and no more commands of a type than Discord allows."""
    if not isinstance(commands, list):
        return ["the body must be a JSON array of commands"]
    problems: list[str] = []
    seen: dict[tuple[int, str], int] = {}
    counts: dict[int, int] = {}
    for index, command in enumerate(commands):
        where = f"commands[{index}]"
        if not isinstance(command, dict):
            problems.append(f"{where}: must be an object")
            continue
        kind = command.get("type", CHAT_INPUT)
        counts[kind] = counts.get(kind, 0) + 1
        key = (kind, str(command.get("name")))
        if key in seen:
            problems.append(f"{where}: name {key[1]!r} is used twice for command type {kind}")
        seen[key] = index
        problems += [f"{where}{p}" for p in check_command(command)]
    for kind, count in counts.items():
        limit = MAX_COMMANDS.get(kind)
        if limit is not None and count > limit:
            problems.append(f"{count} commands of type {kind}; at most {limit} are allowed")
    return problems


def check_command(command: Mapping[str, Any]) -> list[str]:
    """One application command object as sent for creation."""
    kind = command.get("type", CHAT_INPUT)
    if kind not in MAX_COMMANDS:
        return [f".type: {kind!r} is not an application command type"]
    name = command.get("name")
    if kind != CHAT_INPUT:
        ok = isinstance(name, str) and 1 <= len(name) <= MAX_NAME
        problems = [] if ok else [f".name: {name!r} must be 1-32 characters"]
        if command.get("description") not in (None, ""):
            problems.append(".description: must be empty for user and message commands")
        if command.get("options"):
            problems.append(".options: only CHAT_INPUT commands take options")
        return problems
    problems = _check_named(command, "")
    problems += _check_option_list(command.get("options") or [], ".options", depth=0)
    problems += _check_command_extras(command)
    total = command_characters(command)
    if total > MAX_COMMAND_CHARACTERS:
        problems.append(f": {total} characters in names, descriptions and choices (max 4000)")
    return problems


def _check_named(item: Mapping[str, Any], where: str) -> list[str]:
    problems = []
    name = item.get("name")
    if not valid_name(name):
        problems.append(
            f"{where}.name: {name!r} must match ^[-_'\\p{{L}}\\p{{N}}]{{1,32}}$ in lowercase"
        )
    description = item.get("description")
    if not isinstance(description, str) or not 1 <= len(description) <= MAX_DESCRIPTION:
        problems.append(f"{where}.description: {description!r} must be 1-100 characters")
    for locale, text in (item.get("name_localizations") or {}).items():
        if not valid_name(text):
            problems.append(f"{where}.name_localizations.{locale}: {text!r} is not a valid name")
    for locale, text in (item.get("description_localizations") or {}).items():
        if not isinstance(text, str) or not 1 <= len(text) <= MAX_DESCRIPTION:
            problems.append(f"{where}.description_localizations.{locale}: must be 1-100 chars")
    return problems


def _check_command_extras(command: Mapping[str, Any]) -> list[str]:
    problems = []
    perms = command.get("default_member_permissions")
    if perms is not None and not (isinstance(perms, str) and perms.isdigit()):
        problems.append(".default_member_permissions: must be a string of digits or null")
    contexts = command.get("contexts")
    if contexts is not None and not set(contexts) <= {0, 1, 2}:
        problems.append(f".contexts: {contexts!r} holds an unknown interaction context")
    kinds = command.get("integration_types")
    if kinds is not None and not set(kinds) <= {0, 1}:
        problems.append(f".integration_types: {kinds!r} holds an unknown installation type")
    return problems


def _check_option_list(options: object, where: str, *, depth: int) -> list[str]:
    """``depth`` 0: the command's own options; 1: a group's or a subcommand's; 2: a
    subcommand's inside a group."""
    if not isinstance(options, list):
        return [f"{where}: must be an array"]
    problems = []
    if len(options) > MAX_OPTIONS:
        problems.append(f"{where}: {len(options)} options; at most 25 are allowed")
    kinds = [o.get("type") if isinstance(o, dict) else None for o in options]
    nested = [k in (SUB_COMMAND, SUB_COMMAND_GROUP) for k in kinds]
    if any(nested) and not all(nested):
        problems.append(f"{where}: subcommands and groups cannot sit beside plain options")
    names = [o.get("name") for o in options if isinstance(o, dict)]
    for name in {n for n in names if names.count(n) > 1}:
        problems.append(f"{where}: option name {name!r} is used twice")
    optional_seen = False
    for index, option in enumerate(options):
        here = f"{where}[{index}]"
        if not isinstance(option, dict):
            problems.append(f"{here}: must be an object")
            continue
        kind = option.get("type")
        if kind not in OPTION_TYPES:
            problems.append(f"{here}.type: {kind!r} is not an option type")
            continue
        problems += _check_named(option, here)
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            problems += _check_nesting(option, here, depth=depth)
            continue
        if option.get("required"):
            if optional_seen:
                problems.append(f"{here}: required options must come before optional ones")
        else:
            optional_seen = True
        problems += _check_value_option(option, here)
    return problems


def _check_nesting(option: Mapping[str, Any], where: str, *, depth: int) -> list[str]:
    kind = option["type"]
    inner = option.get("options") or []
    if kind == SUB_COMMAND_GROUP:
        if depth != 0:
            return [f"{where}: a subcommand group can only sit at the top of a command"]
        if not inner or any(o.get("type") != SUB_COMMAND for o in inner):
            return [f"{where}.options: a subcommand group holds one or more subcommands only"]
        return _check_option_list(inner, f"{where}.options", depth=1)
    if depth > 1:
        return [f"{where}: subcommands nest at most one group deep"]
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in inner):
        return [f"{where}.options: a subcommand cannot hold subcommands or groups"]
    return _check_option_list(inner, f"{where}.options", depth=2)


def _check_value_option(option: Mapping[str, Any], where: str) -> list[str]:
    kind = option["type"]
    problems = []
    choices = option.get("choices")
    if choices is not None:
        if kind not in WITH_CHOICES:
            problems.append(f"{where}.choices: only string, integer and number options")
        if option.get("autocomplete"):
            problems.append(f"{where}: autocomplete cannot be combined with choices")
        if len(choices) > MAX_CHOICES:
            problems.append(f"{where}.choices: {len(choices)} choices; at most 25")
        for index, choice in enumerate(choices):
            problems += _check_choice(choice, kind, f"{where}.choices[{index}]")
    if option.get("autocomplete") and kind not in WITH_CHOICES:
        problems.append(f"{where}.autocomplete: only string, integer and number options")
    if kind != STRING and ("min_length" in option or "max_length" in option):
        problems.append(f"{where}: min_length/max_length are for string options")
    if kind not in (INTEGER, NUMBER) and ("min_value" in option or "max_value" in option):
        problems.append(f"{where}: min_value/max_value are for integer and number options")
    if kind != CHANNEL and "channel_types" in option:
        problems.append(f"{where}.channel_types: only for channel options")
    low, high = option.get("min_length"), option.get("max_length")
    if low is not None and not 0 <= low <= MAX_STRING_OPTION_LENGTH:
        problems.append(f"{where}.min_length: {low} is outside 0-6000")
    if high is not None and not 1 <= high <= MAX_STRING_OPTION_LENGTH:
        problems.append(f"{where}.max_length: {high} is outside 1-6000")
    if low is not None and high is not None and low > high:
        problems.append(f"{where}: min_length {low} is above max_length {high}")
    return problems


def _check_choice(choice: object, kind: int, where: str) -> list[str]:
    if not isinstance(choice, dict):
        return [f"{where}: must be an object"]
    problems = []
    name = choice.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_CHOICE_NAME:
        problems.append(f"{where}.name: {name!r} must be 1-100 characters")
    problems += [f"{where}.value: {p}" for p in check_choice_value(choice.get("value"), kind)]
    return problems


def check_choice_value(value: object, kind: int) -> list[str]:
    """A choice's value fits its option's type."""
    if kind == STRING:
        if not isinstance(value, str) or len(value) > MAX_CHOICE_STRING:
            return [f"{value!r} must be a string of at most 100 characters"]
        return []
    if kind == INTEGER:
        if not isinstance(value, int) or isinstance(value, bool):
            return [f"{value!r} must be an integer between -2^53 and 2^53"]
        if not -SAFE_INTEGER < value < SAFE_INTEGER:
            return [f"{value!r} must be an integer between -2^53 and 2^53"]
        return []
    if kind == NUMBER:
        if not isinstance(value, int | float) or isinstance(value, bool):
            return [f"{value!r} must be a number"]
        return []
    return [f"choices are not allowed for option type {kind}"]


def command_characters(command: Mapping[str, Any]) -> int:
    """The size Discord holds to ``MAX_COMMAND_CHARACTERS``: names, descriptions, choice names
    and choice values of the command and all its options, where a localized field counts as its
    longest text, the default included."""
    total = _longest(command, "name") + _longest(command, "description")
    for option in command.get("options") or []:
        total += command_characters(option)
        for choice in option.get("choices") or []:
            total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total


def _longest(item: Mapping[str, Any], field: str) -> int:
    texts = [item.get(field, ""), *(item.get(f"{field}_localizations") or {}).values()]
    return max(len(str(text)) for text in texts)


def check_autocomplete(data: object, option_type: int) -> list[str]:
    """The data of an APPLICATION_COMMAND_AUTOCOMPLETE_RESULT (callback type 8)."""
    if not isinstance(data, dict) or not isinstance(data.get("choices"), list):
        return ["autocomplete result: data.choices must be an array"]
    choices = data["choices"]
    problems = []
    if len(choices) > MAX_CHOICES:
        problems.append(f"autocomplete result: {len(choices)} choices; at most 25")
    for index, choice in enumerate(choices):
        problems += _check_choice(choice, option_type, f"autocomplete choices[{index}]")
    return problems


def check_allowed_mentions(payload: Mapping[str, Any], *, required: bool) -> list[str]:
    """The bot must never let a message ping @everyone, @here or a role: ``allowed_mentions``
    present (when the message has content), no "everyone"/"roles" in ``parse``, no role ids."""
    mentions = payload.get("allowed_mentions")
    if mentions is None:
        if required and payload.get("content"):
            return ["message content sent without allowed_mentions: Discord would parse them all"]
        return []
    problems = []
    parse = mentions.get("parse", [])
    if not set(parse) <= MENTION_PARSE:
        problems.append(f"allowed_mentions.parse: {parse!r} holds an unknown type")
    if {"everyone", "roles"} & set(parse):
        problems.append(f"allowed_mentions.parse: {parse!r} could ping @everyone or roles")
    if mentions.get("roles"):
        problems.append(f"allowed_mentions.roles: {mentions['roles']!r} could ping roles")
    if "users" in parse and mentions.get("users"):
        problems.append("allowed_mentions: parse 'users' and a users list are exclusive")
    if len(mentions.get("users") or []) > 100:
        problems.append("allowed_mentions.users: at most 100 ids")
    return problems


def check_message(payload: Mapping[str, Any], *, creating: bool, files: int) -> list[str]:
    """Content, embeds, components and flags of a message the bot creates or edits."""
    problems = []
    content = payload.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        problems.append(f"content: {len(str(content))} characters; at most 2000")
    embeds = payload.get("embeds") or []
    components = payload.get("components") or []
    flags = payload.get("flags") or 0
    if creating and not (content or embeds or files or components or payload.get("poll")):
        problems.append("Cannot send an empty message")
    if flags & ~SETTABLE_FLAGS:
        problems.append(f"flags: {flags} holds flags a bot cannot set")
    if len(embeds) > MAX_EMBEDS:
        problems.append(f"embeds: {len(embeds)}; at most 10")
    total = 0
    for index, embed in enumerate(embeds):
        found, size = _check_embed(embed, f"embeds[{index}]")
        problems += found
        total += size
    if total > MAX_EMBED_TOTAL:
        problems.append(f"embeds: {total} characters in all; at most 6000")
    if not flags & COMPONENTS_V2:
        problems += _check_rows(components)
    for index, attachment in enumerate(payload.get("attachments") or []):
        problem = _description_problem(attachment.get("description"))
        if problem:
            problems.append(f"attachments[{index}]{problem}")
    problems += _check_file_count(payload.get("attachments") or [], files)
    return problems


MAX_FILES = 10  # files in one message


def _check_file_count(listed: Sequence[Mapping[str, Any]], files: int) -> list[str]:
    count = max(files, len(listed))
    return [f"attachments: {count} files; at most {MAX_FILES}"] if count > MAX_FILES else []


def _check_embed(embed: Mapping[str, Any], where: str) -> tuple[list[str], int]:
    problems = []
    size = 0
    for key, limit in EMBED_LIMITS.items():
        text = embed.get(key) or ""
        size += len(text)
        if len(text) > limit:
            problems.append(f"{where}.{key}: {len(text)} characters; at most {limit}")
    fields = embed.get("fields") or []
    if len(fields) > MAX_FIELDS:
        problems.append(f"{where}.fields: {len(fields)}; at most 25")
    for index, field in enumerate(fields):
        name, value = field.get("name") or "", field.get("value") or ""
        size += len(name) + len(value)
        if not 1 <= len(name) <= MAX_FIELD_NAME or not 1 <= len(value) <= MAX_FIELD_VALUE:
            problems.append(f"{where}.fields[{index}]: name 1-256 and value 1-1024 characters")
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    size += len(footer) + len(author)
    if len(footer) > MAX_FOOTER or len(author) > MAX_AUTHOR:
        problems.append(f"{where}: footer at most 2048 and author at most 256 characters")
    return problems, size


def _check_rows(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    problems = []
    if len(rows) > MAX_ROWS:
        problems.append(f"components: {len(rows)} action rows; at most 5")
    custom_ids: list[str] = []
    for r, row in enumerate(rows):
        if row.get("type") != ACTION_ROW:
            problems.append(f"components[{r}]: top-level components must be action rows")
            continue
        items = row.get("components") or []
        if not 1 <= len(items) <= MAX_ROW_ITEMS:
            problems.append(f"components[{r}]: an action row holds 1-5 components")
        if len(items) > 1 and any(item.get("type") == STRING_SELECT for item in items):
            problems.append(f"components[{r}]: a select menu fills its action row alone")
        for i, item in enumerate(items):
            problems += _check_button(item, f"components[{r}].components[{i}]", custom_ids)
            problems += _check_select(item, f"components[{r}].components[{i}]", custom_ids)
    for custom_id in {c for c in custom_ids if custom_ids.count(c) > 1}:
        problems.append(f"components: custom_id {custom_id!r} is used twice in one message")
    return problems


def _check_button(item: Mapping[str, Any], where: str, custom_ids: list[str]) -> list[str]:
    if item.get("type") != BUTTON:
        return []
    problems = []
    label = item.get("label") or ""
    if len(label) > MAX_LABEL:
        problems.append(f"{where}.label: {len(label)} characters; at most 80")
    if not label and not item.get("emoji"):
        problems.append(f"{where}: a button needs a label or an emoji")
    if item.get("style") == LINK_STYLE:
        if "custom_id" in item or not item.get("url"):
            problems.append(f"{where}: a link button has a url and no custom_id")
        elif len(item["url"]) > MAX_BUTTON_URL:
            problems.append(f"{where}.url: {len(item['url'])} characters; at most 512")
        return problems
    custom_id = item.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
        problems.append(f"{where}.custom_id: {custom_id!r} must be 1-100 characters")
    else:
        custom_ids.append(custom_id)
    return problems


def _check_select(item: Mapping[str, Any], where: str, custom_ids: list[str]) -> list[str]:
    """A string select: its custom id, placeholder and 1-25 options, each text within 100."""
    if item.get("type") != STRING_SELECT:
        return []
    problems = []
    custom_id = item.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
        problems.append(f"{where}.custom_id: {custom_id!r} must be 1-100 characters")
    else:
        custom_ids.append(custom_id)
    if len(item.get("placeholder") or "") > MAX_PLACEHOLDER:
        problems.append(f"{where}.placeholder: more than {MAX_PLACEHOLDER} characters")
    options = item.get("options") or []
    if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
        problems.append(f"{where}.options: {len(options)} options; 1-25 are allowed")
    values = [option.get("value") for option in options]
    if len(set(values)) != len(values):
        problems.append(f"{where}.options: option values must be unique")
    for o, option in enumerate(options):
        for key in ("label", "value", "description"):
            text = option.get(key)
            if text is None and key == "description":
                continue
            if not isinstance(text, str) or not 1 <= len(text) <= MAX_OPTION_TEXT:
                problems.append(f"{where}.options[{o}].{key}: must be 1-100 characters")
    return problems


def attachment_references(embeds: Iterable[Mapping[str, Any]]) -> list[str]:
    """The file names that embeds point at with ``attachment://name``."""
    names = []
    for embed in embeds:
        for key in ("image", "thumbnail"):
            url = (embed.get(key) or {}).get("url") or ""
            if url.startswith("attachment://"):
                names.append(url.removeprefix("attachment://"))
    return names


# -- Components V2 ------------------------------------------------------------------------------
# The "Components" reference: with the IS_COMPONENTS_V2 flag a message is its components alone
# (layout and content components, nested), at most 40 of them counting every nested one.

SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE_COMPONENT, SEPARATOR = 9, 10, 11, 12, 13, 14
CONTAINER = 17
MAX_V2_COMPONENTS, MAX_V2_TEXT, MAX_GALLERY_ITEMS = 40, 4000, 10
IN_CONTAINER = frozenset(
    {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE_COMPONENT, SEPARATOR}
)
V2_TOP_LEVEL = IN_CONTAINER | {CONTAINER}


def check_components_v2(payload: Mapping[str, Any], *, was_v2: bool) -> list[str]:
    """A message sent or edited with IS_COMPONENTS_V2 (or already carrying it): no content,
    embeds, stickers or poll; the flag cannot be taken away; the components' layout rules."""
    flags = payload.get("flags")
    problems = []
    if was_v2 and flags is not None and not flags & COMPONENTS_V2:
        problems.append("flags: IS_COMPONENTS_V2 cannot be removed from a message")
    if not (was_v2 or (flags or 0) & COMPONENTS_V2):
        return problems
    if any(payload.get(key) for key in ("content", "embeds", "sticker_ids", "poll")):
        problems.append("content, embeds, stickers and polls cannot be used with IS_COMPONENTS_V2")
    components = payload.get("components")
    if components is None:
        return problems
    count = sum(1 for _ in walk_components(components))
    if count > MAX_V2_COMPONENTS:
        problems.append(f"components: {count} in all; at most {MAX_V2_COMPONENTS}")
    custom_ids: list[str] = []
    text = 0
    for index, component in enumerate(components):
        where = f"components[{index}]"
        if component.get("type") not in V2_TOP_LEVEL:
            problems.append(f"{where}: type {component.get('type')} cannot stand at the top")
            continue
        children = component.get("components") or [] if component["type"] == CONTAINER else []
        for c, child in enumerate(children):
            if child.get("type") not in IN_CONTAINER:
                problems.append(f"{where}.components[{c}]: type {child.get('type')} not allowed")
        for nested, item in _content(component, where):
            problems += _check_v2_item(item, nested, custom_ids)
            text += len(item.get("content") or "") if item.get("type") == TEXT_DISPLAY else 0
    if text > MAX_V2_TEXT:
        problems.append(f"components: {text} characters of text in all; at most {MAX_V2_TEXT}")
    for custom_id in {c for c in custom_ids if custom_ids.count(c) > 1}:
        problems.append(f"components: custom_id {custom_id!r} is used twice in one message")
    return problems


def walk_components(components: Sequence[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    """Every component, nested ones included (an action row's buttons, a container's rows)."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        if component.get("accessory"):
            yield component["accessory"]


def v2_attachment_references(components: Sequence[Mapping[str, Any]]) -> list[str]:
    """The file names that media galleries, thumbnails and files point at (attachment://)."""
    urls = []
    for component in walk_components(components):
        for item in component.get("items") or []:
            urls.append((item.get("media") or {}).get("url") or "")
        if component.get("type") in (THUMBNAIL, FILE_COMPONENT):
            urls.append(((component.get("media") or component.get("file")) or {}).get("url") or "")
    return [url.removeprefix("attachment://") for url in urls if url.startswith("attachment://")]


def _content(component: Mapping[str, Any], where: str) -> Iterable[tuple[str, Mapping[str, Any]]]:
    """The non-layout components under one top-level component, with where they stand."""
    if component.get("type") != CONTAINER:
        yield where, component
        return
    for index, child in enumerate(component.get("components") or []):
        yield f"{where}.components[{index}]", child


def _check_v2_item(item: Mapping[str, Any], where: str, custom_ids: list[str]) -> list[str]:
    kind = item.get("type")
    if kind == ACTION_ROW:
        buttons = item.get("components") or []
        problems = [] if 1 <= len(buttons) <= MAX_ROW_ITEMS else [f"{where}: 1-5 buttons"]
        for index, button in enumerate(buttons):
            problems += _check_button(button, f"{where}.components[{index}]", custom_ids)
        return problems
    if kind == TEXT_DISPLAY:
        return [] if item.get("content") else [f"{where}: a text display needs content"]
    if kind == MEDIA_GALLERY:
        items = item.get("items") or []
        if not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            return [f"{where}: a media gallery holds 1-10 items"]
        if not all((entry.get("media") or {}).get("url") for entry in items):
            return [f"{where}: every media gallery item needs media.url"]
        return [
            f"{where}.items[{index}]{problem}"
            for index, entry in enumerate(items)
            if (problem := _description_problem(entry.get("description")))
        ]
    return []


def _description_problem(description: object) -> str | None:
    """What is wrong with a file's or a gallery item's description (its alternative text)."""
    if description is None:
        return None
    if not isinstance(description, str):
        return f".description: {description!r} is not a string"
    if len(description) > MAX_ATTACHMENT_DESCRIPTION:
        return f".description: {len(description)} characters; at most 1024"
    return None
