"""Fixtures shared by every test folder; having this file here also puts ``tests/`` on the import
path, so ``from fakes import FakeClock`` works in each folder."""

from __future__ import annotations

import pytest
from fakes import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    """A clock the test moves by hand."""
    return FakeClock()
