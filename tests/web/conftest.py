"""A live server and one headless Chromium for each web test module.

Before any test runs, a session that selected tests here looks for a Chromium
(``find_chromium``). With none, the whole run stops at once and says how to get one: the
browser tests fail or pass, they are never skipped.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from server.harness import LiveServer, running, settings_for

from .flows import CHROMIUM_ARGS, Opener, Watch, phone_context, table_context, watch

HERE = Path(__file__).resolve().parent
CHROMIUM = pytest.StashKey[str]()  # the browser found for this session
DEBIAN_CHROMIUM = "/usr/bin/chromium"
ON_PATH = ("chromium", "chromium-browser", "google-chrome")
HOW_TO_GET_ONE = """\
Get one with either of:
    sudo apt-get install chromium                    (Debian, Ubuntu)
    uv run playwright install --with-deps chromium   (Playwright's own Chromium)
or set TALLTALES_CHROMIUM to a Chromium or Chrome executable.
To run every other test without the browser tests:
    uv run pytest --ignore=tests/web"""


def playwright_chromium() -> str | None:
    """The Chromium that `playwright install` put in its cache, if it is there."""
    try:
        with sync_playwright() as playwright:
            path = playwright.chromium.executable_path
    except Exception:  # no driver, no browser: either way there is nothing to use
        return None
    return path if Path(path).is_file() else None


def find_chromium() -> tuple[str | None, str]:
    """The browser to use, or None with what was looked for.

    TALLTALES_CHROMIUM, when set, is the only one tried; otherwise Debian's, then one on
    PATH, then Playwright's own."""
    chosen = os.environ.get("TALLTALES_CHROMIUM")
    if chosen:
        found = chosen if Path(chosen).is_file() else None
        return found, f"TALLTALES_CHROMIUM is {chosen}, which is not a file"
    looked = (
        f"looked for {DEBIAN_CHROMIUM}, {', '.join(ON_PATH)} on PATH, and Playwright's own Chromium"
    )
    if Path(DEBIAN_CHROMIUM).is_file():
        return DEBIAN_CHROMIUM, looked
    for name in ON_PATH:
        if on_path := shutil.which(name):
            return on_path, looked
    return playwright_chromium(), looked


def pytest_collection_finish(session: pytest.Session) -> None:
    """Find Chromium before anything runs, if browser tests were selected; else stop the run."""
    if session.config.option.collectonly:
        return
    if not any(item.path.resolve().is_relative_to(HERE) for item in session.items):
        return
    found, looked = find_chromium()
    if found is None:
        pytest.exit(
            f"The browser tests (tests/web) need Chromium, and none was found ({looked}).\n"
            + HOW_TO_GET_ONE,
            returncode=pytest.ExitCode.USAGE_ERROR,
        )
    session.config.stash[CHROMIUM] = found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The real app on a free port; bots pace their moves a little, like people."""
    settings = settings_for(
        tmp_path_factory.mktemp("web"), bot_delay=0.2, message_rate=200.0, message_burst=400
    )
    with running(settings) as live:
        yield live


@pytest.fixture(scope="module")
def browser(pytestconfig: pytest.Config) -> Iterator[Browser]:
    """One headless Chromium, the one found at the start; every page gets its own context."""
    path = pytestconfig.stash[CHROMIUM]
    with sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(
                executable_path=path, headless=True, args=CHROMIUM_ARGS
            )
        except Exception as err:
            pytest.fail(f"cannot start Chromium ({path}) for the web tests: {err}", pytrace=False)
        yield chromium
        chromium.close()


@pytest.fixture
def base(server: LiveServer) -> str:
    """The server's address, for page.goto."""
    return server.http


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Opener]:
    """open_page("phone" | "table"): a page in a context of its own, closed afterwards."""
    contexts: list[BrowserContext] = []

    def opener(kind: str) -> tuple[Page, Watch]:
        context = phone_context(browser) if kind == "phone" else table_context(browser)
        contexts.append(context)
        page = context.new_page()
        return page, watch(page)

    yield opener
    for context in contexts:
        context.close()
