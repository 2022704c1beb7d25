"""What a chat message may hold (`app.people.chat.checked_text`): plain text, normalised and
trimmed, 1 to 300 characters, nothing invisible or controlling; markup stays as it was said."""

from __future__ import annotations

import pytest

from app.people.chat import TEXT_LENGTH, BadChatMessage, checked_text


def test_a_message_is_trimmed_and_normalised() -> None:
    assert checked_text("  well played  \n") == "well played"
    assert checked_text("Cafe\u0301") == "Caf\u00e9"  # NFC: one character, not two


def test_markup_is_kept_as_plain_text() -> None:
    said = '<script>alert("x")</script> <b>bold</b> &amp;'
    assert checked_text(said) == said


def test_emoji_and_other_scripts_are_words_too() -> None:
    for text in ("👍🏽 gg", "السلام عليكم", "おつかれさま", "Ærø"):
        assert checked_text(text) == text


@pytest.mark.parametrize("text", ["", "   ", "\n\t "])
def test_an_empty_message_is_refused(text: str) -> None:
    with pytest.raises(BadChatMessage, match="1 to 300"):
        checked_text(text)


def test_a_message_has_at_most_300_characters_after_normalising() -> None:
    assert checked_text("x" * TEXT_LENGTH) == "x" * TEXT_LENGTH
    assert checked_text("e\u0301" * TEXT_LENGTH) == "\u00e9" * TEXT_LENGTH
    with pytest.raises(BadChatMessage):
        checked_text("x" * (TEXT_LENGTH + 1))


@pytest.mark.parametrize(
    "bad",
    [
        "\u202e",  # right-to-left override
        "\u200b",  # zero-width space
        "\u200d",  # zero-width joiner
        "\ufeff",  # byte order mark
        "\x07",  # bell
        "\n",  # a line break inside a message
        "\u2028",  # line separator
        "\U000e0041",  # a tag character (invisible)
        "\ud800",  # a lone surrogate
    ],
)
def test_control_and_invisible_characters_are_refused(bad: str) -> None:
    with pytest.raises(BadChatMessage, match=f"U\\+{ord(bad):04X}") as refused:
        checked_text(f"hello{bad}there")
    assert refused.value.code == "bad_chat_message"
