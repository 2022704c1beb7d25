"""The operator's page names every setting the service reads."""

from __future__ import annotations

from pathlib import Path

from app.base.config import Settings, documented

ROOT = Path(__file__).resolve().parents[2]


def test_operations_lists_every_setting() -> None:
    page = (ROOT / "docs" / "operations.md").read_text()
    for env, _, _ in documented():
        assert f"| `{env}` |" in page, env


def test_settings_are_read_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "REDIS_URL": "redis://x:1/0",
            "TRUST_PROXY": "1",
            "MAX_OPEN_GAMES": "3",
            "EXTRA_GAMES": "a:b, c:d",
            "ABANDON_AFTER_DAYS": "2.5",
        }
    )
    assert settings.redis_url == "redis://x:1/0" and settings.trust_proxy
    assert settings.open_games == 3 and settings.extra_games == ("a:b", "c:d")
    assert settings.abandon_days == 2.5 and not settings.runs_worker
    assert Settings.from_env({}).runs_worker and Settings.from_env({}).embedded
