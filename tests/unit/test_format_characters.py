"""Format characters (Unicode category Cf) are refused in names and chat text in every plane,
not only in the Basic Multilingual Plane: tag characters, musical symbol formatting."""

from __future__ import annotations

import pytest

from app.commands.seats import InvalidName, check_name
from app.people.chat import BadChatMessage, checked_text

BEYOND_THE_BMP = ["\U000e0041", "\U000e0001", "\U0001d173", "\U000110bd", "\U00013430"]


@pytest.mark.parametrize("char", BEYOND_THE_BMP)
def test_a_name_with_a_format_character_beyond_the_bmp_is_refused(char: str) -> None:
    with pytest.raises(InvalidName, match=f"U\\+{ord(char):04X}"):
        check_name(f"Ann{char}")


@pytest.mark.parametrize("char", BEYOND_THE_BMP)
def test_chat_text_with_a_format_character_beyond_the_bmp_is_refused(char: str) -> None:
    with pytest.raises(BadChatMessage, match=f"U\\+{ord(char):04X}"):
        checked_text(f"hello {char}there")


def test_letters_and_emoji_beyond_the_bmp_still_pass() -> None:
    assert check_name("\U0001d510nn \U0001f600") == "\U0001d510nn \U0001f600"
    assert checked_text("good game \U0001f389") == "good game \U0001f389"
