"""The ratings rebuild benchmark at a tiny scale (`bench/service/ratings_rebuild.py` measures
20,000 games): real logs stored as the service stores them, half of them archived, rebuilt in
process and by `python -m app ratings rebuild` in two processes, to the same records."""

from __future__ import annotations

import pytest

from bench.service.ratings_rebuild import main


@pytest.mark.timeout(240)  # three games played, then four rebuilds (two start processes)
def test_every_rebuild_records_every_stored_game_alike(capsys: pytest.CaptureFixture[str]) -> None:
    tiny = ["--games", "30", "--logs", "1", "--runs", "2", "--jobs", "1", "--archived", "0.5"]
    main([*tiny, "--processes", "2"])
    out = capsys.readouterr().out
    assert "Every run recorded 30 games" in out, out
    assert "(the same after every run)" in out, out
    assert "events from its" in out, out  # a stored game read back by the service
