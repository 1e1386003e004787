"""Move input is bounded: over-long text is refused at once, and parsing is linear."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest

from bot.jarmo import Action, NotationError
from bot.jarmo.notation import MAX_INPUT_LENGTH, parse_point


@pytest.mark.parametrize("parse", [Action.parse, parse_point])
def test_over_long_input_is_refused_with_the_limit(parse: Callable[[str], object]) -> None:
    text = "A1" + " " * 100_000 + "C2"
    with pytest.raises(NotationError) as refused:
        parse(text)
    assert f"at most {MAX_INPUT_LENGTH}" in str(refused.value)
    assert len(str(refused.value)) < 400  # the message does not echo the whole input


@pytest.mark.parametrize("text", ["  d3  -  c5  @  b1  ", "A1 x C2", "\tb1\t c3 ", " @ b1 "])
def test_every_accepted_form_fits_the_limit(text: str) -> None:
    assert len(text) <= MAX_INPUT_LENGTH
    assert Action.parse(text)


def test_a_failing_parse_backtracks_in_linear_time() -> None:
    # Straight at the pattern, past the length limit: quadratic backtracking (as `\\s*\\s\\s*`
    # had) would take minutes on this input; linear matching takes milliseconds. Run in a child
    # so that a regression fails at the time limit instead of hanging the suite.
    code = (
        "from bot.jarmo.notation import _STEP\n"
        "for n in (50_000, 200_000):\n"
        "    assert _STEP.fullmatch('A1' + ' ' * n + '!') is None\n"
        "    assert _STEP.fullmatch('A1' + ' -' * n) is None\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
