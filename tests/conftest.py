"""Fixtures for every test directory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fixture_game import FIB_OFF

from talltales.core.registry import register, unregister


@pytest.fixture
def fib_off() -> Iterator[None]:
    """The fixture game is registered (and so playable on an in-process server) during a test."""
    register(FIB_OFF)
    try:
        yield
    finally:
        unregister(FIB_OFF.id)
