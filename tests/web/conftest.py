"""A live server and one headless Chromium for each web test module.

Chromium must be installed (Debian's, at /usr/bin/chromium; CI installs it): when it is
missing the tests fail, they are never skipped.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright
from server.harness import LiveServer, running, settings_for

from .flows import launch


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The real app on a free port; bots pace their moves a little, like people."""
    settings = settings_for(
        tmp_path_factory.mktemp("web"), bot_delay=0.2, message_rate=200.0, message_burst=400
    )
    with running(settings) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium; every page gets its own context (its own storage)."""
    with sync_playwright() as playwright:
        try:
            chromium = launch(playwright)
        except Exception as err:
            pytest.fail(f"cannot start Chromium for the web tests: {err}", pytrace=False)
        yield chromium
        chromium.close()


@pytest.fixture
def base(server: LiveServer) -> str:
    """The server's address, for page.goto."""
    return server.http
