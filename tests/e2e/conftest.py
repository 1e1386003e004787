"""Fixtures for the end-to-end tests: one fake Discord and one real bot process per module.

After every test that uses the fake, nothing may have gone wrong behind the scenes: no request
Discord would have refused (``fake.problems``) and no ERROR in the bot's log.
"""

from __future__ import annotations

import statistics

import pytest
from bot_process import BotProcess
from fake_discord import ANSWER_DEADLINE, TIMINGS, FakeDiscord


@pytest.fixture(scope="module")
def fake():
    server = FakeDiscord().start()
    yield server
    server.close()


@pytest.fixture(scope="module")
def bot(fake, tmp_path_factory):
    """``python -m bot run`` against the fake, with a fresh database for the module."""
    process = BotProcess(fake, tmp_path_factory.mktemp("bot"))
    process.start()
    yield process
    if process.running():
        fake.wait_idle()
        status, seconds = process.stop()
        assert status == 0, f"exit status {status} after SIGTERM:\n{process.log_tail()}"
        assert seconds < 5, f"the bot took {seconds:.1f} s to stop"


@pytest.fixture(autouse=True)
def nothing_went_wrong(request):
    """Fail the test if the fake recorded a problem or the bot logged an error during it."""
    if "fake" not in request.fixturenames:
        yield
        return
    fake: FakeDiscord = request.getfixturevalue("fake")
    process: BotProcess | None = (
        request.getfixturevalue("bot") if "bot" in request.fixturenames else None
    )
    fake.take_problems()
    if process is not None:
        process.new_errors()
    yield
    fake.wait_idle()
    problems = fake.take_problems()
    errors = process.new_errors() if process is not None else []
    assert not problems, "the fake saw requests Discord would refuse:\n" + "\n".join(problems)
    assert not errors, "the bot logged errors:\n" + "\n".join(errors)


def pytest_terminal_summary(terminalreporter):
    if not TIMINGS:
        return
    times = sorted(TIMINGS, key=lambda item: item[1], reverse=True)
    seconds = [t for _, t in times]
    report = terminalreporter
    report.section("end-to-end interaction answer times")
    report.write_line(
        f"{len(seconds)} interactions answered; median {statistics.median(seconds) * 1000:.0f} ms,"
        f" slowest {seconds[0] * 1000:.0f} ms (Discord allows {ANSWER_DEADLINE:.0f} s)"
    )
    for label, elapsed in times[:5]:
        report.write_line(f"  {elapsed * 1000:7.0f} ms  {label}")
