"""Turning the SQL the backends share (``?``, ``?N`` and ``:name`` parameters) into
PostgreSQL's numbered ``$N`` parameters."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

# A string literal (left alone), or one of the three parameter forms. `::` is a cast, not a name.
_TOKEN = re.compile(r"'(?:[^']|'')*'|::|\?(\d+)|\?|(?<![:\w]):([A-Za-z_]\w*)")


def to_postgres(sql: str, parameters: Sequence[Any] | Mapping[str, Any]) -> tuple[str, list[Any]]:
    """``sql`` with ``$N`` parameters, and the arguments in that order."""
    text, order = _translate(sql)
    if isinstance(parameters, Mapping):
        return text, [parameters[name] for name in order]
    if order and isinstance(order[0], int):
        return text, [parameters[index] for index in order]
    return text, list(parameters)


@lru_cache(maxsize=1024)
def _translate(sql: str) -> tuple[str, tuple[Any, ...]]:
    """(the PostgreSQL text, the source of each ``$N``: a name, or a 0-based position)."""
    order: list[Any] = []
    numbered: dict[Any, int] = {}

    def place(match: re.Match[str]) -> str:
        whole, number, name = match[0], match[1], match[2]
        if whole.startswith("'") or whole == "::":
            return whole
        if number is not None:  # ?N: the N-th argument, as often as it appears
            key: Any = int(number) - 1
        elif name is not None:
            key = name
        else:  # a bare ?: the next argument
            key = len(order)
            order.append(key)
            return f"${len(order)}"
        if key not in numbered:
            order.append(key)
            numbered[key] = len(order)
        return f"${numbered[key]}"

    text = _TOKEN.sub(place, sql)
    return text, tuple(order)
