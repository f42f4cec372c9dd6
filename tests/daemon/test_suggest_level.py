"""The local API's ``suggest`` takes the bot's ``level``: absent means normal, an unknown one
is refused naming the known, a known one reaches the session module's ``suggest``."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from fourwinds.daemon.local_api import requests
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.protocol.bot_level import BotLevel


def _daemon(calls: list[tuple[Any, ...]]) -> Any:
    def suggest(session: object, *level: BotLevel) -> dict[str, Any]:
        calls.append(level)
        return {"action": {}, "tiles": [], "step": 1}

    table = SimpleNamespace(session=object())
    return SimpleNamespace(find_table=lambda ref: table, port=SimpleNamespace(suggest=suggest))


def test_suggest_passes_the_level_and_refuses_an_unknown_one() -> None:
    calls: list[tuple[Any, ...]] = []
    d = _daemon(calls)
    asyncio.run(requests._suggest(d, {"type": "suggest", "table": "t"}))
    asyncio.run(requests._suggest(d, {"type": "suggest", "table": "t", "level": "strong"}))
    assert calls == [(), (BotLevel.STRONG,)]  # normal: the call of before the levels
    with pytest.raises(ApiError, match="unknown bot level 'hard'"):
        asyncio.run(requests._suggest(d, {"type": "suggest", "table": "t", "level": "hard"}))
