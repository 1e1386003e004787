"""Fixtures for the end-to-end tests: one fake Discord and one real bot process per module.

The tests that use the ``bot`` fixture run once per backend, each test id naming it
(``[sqlite]``, ``[postgresql]``): the bot gets a fresh PostgreSQL database through
``JARMO_DATABASE_URL``. A test that reads or changes the SQLite file itself is marked
``@pytest.mark.sqlite_only("why")``.

After every test that uses the fake, nothing may have gone wrong behind the scenes: no request
Discord would have refused (``fake.problems``) and no ERROR in the bot's log.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator

import pytest

from tests.e2e.bot_process import BotProcess
from tests.e2e.fake_discord import ANSWER_DEADLINE, TIMINGS, FakeDiscord
from tests.postgres import postgres_server

BACKENDS = ("sqlite", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite_only(reason): the e2e test works on the SQLite file itself"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test with the ``bot`` fixture on every backend (module-scoped: one bot each)."""
    if "bot" not in metafunc.fixturenames or "e2e_backend" not in metafunc.fixturenames:
        return
    narrowed = metafunc.definition.get_closest_marker("sqlite_only")
    if narrowed is not None:
        assert narrowed.args, "say why the test is sqlite_only"
    backends = ["sqlite"] if narrowed is not None else list(BACKENDS)
    metafunc.parametrize("e2e_backend", backends, indirect=True, scope="module")


@pytest.fixture(scope="module")
def e2e_backend(request: pytest.FixtureRequest) -> str:
    """The backend the module's bot stores in (SQLite for a test without a ``bot``)."""
    return getattr(request, "param", "sqlite")


@pytest.fixture(scope="module")
def fake(e2e_backend: str) -> Iterator[FakeDiscord]:
    # One per backend too, so that the second bot of a module meets a fresh Discord.
    server = FakeDiscord().start()
    yield server
    server.close()


@pytest.fixture(scope="module")
def bot(
    fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory, e2e_backend: str
) -> Iterator[BotProcess]:
    """``python -m bot run`` against the fake, with a fresh database for the module."""
    process = BotProcess(fake, tmp_path_factory.mktemp("bot"))
    if e2e_backend == "postgresql":
        process.database_url = postgres_server().fresh_database()
    process.start()
    yield process
    if process.running():
        fake.wait_idle()
        status, seconds = process.stop()
        assert status == 0, f"exit status {status} after SIGTERM:\n{process.log_tail()}"
        assert seconds < 5, f"the bot took {seconds:.1f} s to stop"
    if e2e_backend == "postgresql":
        assert not process.database.exists(), "the bot wrote an SQLite file beside PostgreSQL"


@pytest.fixture(autouse=True)
def nothing_went_wrong(request: pytest.FixtureRequest) -> Iterator[None]:
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


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
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
