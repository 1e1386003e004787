"""The shared wording in English, as tests read it: a voice over any way of naming users, and
refusals put in words (commands named as in Discord)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime

import pytest

from bot.service import Refusal
from bot.words import Voice, iso_date, refusal_text, shared_catalogue


def voice(
    name: Callable[[int], str | None] = str,
    *,
    when: Callable[[datetime], str] | None = None,
    date: Callable[[datetime], str] = iso_date,
) -> Voice:
    """The shared wording in English (markdown and slash commands as in Discord), showing users
    with ``name``, coming moments with ``when`` and days with ``date``."""
    return Voice(shared_catalogue(), name=lambda user_id: str(name(user_id)), when=when, date=date)


def english(names: Mapping[int, str] | None = None) -> Voice:
    """The shared wording in English; users shown by ``names`` (else as ``user <id>``)."""
    known = dict(names or {})
    return Voice(shared_catalogue(), name=lambda user_id: known.get(user_id, f"user {user_id}"))


@contextmanager
def refused(
    kind: type[Refusal], match: str, *, names: Mapping[int, str] | None = None
) -> Iterator[None]:
    """Expect the block to be refused with a ``kind`` whose English words match ``match``."""
    with pytest.raises(kind) as caught:
        yield
    text = refusal_text(caught.value, english(names))
    assert re.search(match, text), text
