"""Refusals as players read them: a use case's typed refusal, put in words by the shared
wording in English (commands named as in Discord)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import pytest

from bot.service import Refusal
from bot.words import Voice, refusal_text, shared_catalogue


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
