"""What a chat message may hold (`app.people.chat.checked_text`): plain text of at most 300
characters as sent, not only spaces, nothing invisible or controlling (as a seat's name), kept
normalised and trimmed; markup stays as it was said."""

from __future__ import annotations

import pytest

from app.people.chat import TEXT_LENGTH, BadChatMessage, checked_text


def test_a_message_is_trimmed_and_normalised() -> None:
    assert checked_text("  well played \u3000") == "well played"
    assert checked_text("Cafe\u0301") == "Caf\u00e9"  # NFC: one character, not two


def test_markup_is_kept_as_plain_text() -> None:
    said = '<script>alert("x")</script> <b>bold</b> &amp;'
    assert checked_text(said) == said


def test_emoji_and_other_scripts_are_words_too() -> None:
    for text in (
        "👍🏽 gg",
        "السلام عليكم",
        "おつかれさま",
        "Ærø",
    ):
        assert checked_text(text) == text


def test_a_flag_of_tag_characters_is_refused_as_format_characters_are() -> None:
    with pytest.raises(BadChatMessage, match="U\\+E0067"):
        checked_text("\U0001f3f4\U000e0067\U000e0062\U000e007f")


@pytest.mark.parametrize("text", ["", "   ", "\u00a0\u2003\u3000"])
def test_an_empty_message_is_refused(text: str) -> None:
    with pytest.raises(BadChatMessage, match="1 to 300"):
        checked_text(text)


def test_a_message_has_at_most_300_characters_as_sent() -> None:
    assert checked_text("x" * TEXT_LENGTH) == "x" * TEXT_LENGTH
    assert checked_text("e\u0301" * 150) == "\u00e9" * 150
    for longer in ("x" * (TEXT_LENGTH + 1), "e\u0301" * 151, " " + "x" * TEXT_LENGTH):
        with pytest.raises(BadChatMessage):
            checked_text(longer)


@pytest.mark.parametrize(
    "bad",
    [
        "\u202e",  # right-to-left override
        "\u200b",  # zero-width space
        "\u200d",  # zero-width joiner
        "\ufeff",  # byte order mark
        "\x07",  # bell
        "\n",  # a line break
        "\u2028",  # line separator
        "\ud800",  # a lone surrogate
    ],
)
def test_control_and_invisible_characters_are_refused(bad: str) -> None:
    for text in (f"hello{bad}there", f"hello{bad}"):
        with pytest.raises(BadChatMessage, match=f"U\\+{ord(bad):04X}") as refused:
            checked_text(text)
        assert refused.value.code == "bad_chat_message"
