"""The app tests run in a terminal that speaks no particular language (``LANG=C``), so what
they read does not depend on the machine's settings; a test that wants a language sets it."""

from __future__ import annotations

import pytest

# Where a terminal names its language (POSIX, and GNU gettext's LANGUAGE).
LANGUAGE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


@pytest.fixture(autouse=True)
def plain_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in LANGUAGE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C")
