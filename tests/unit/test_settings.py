"""The settings are the environment's strings made typed by `msgspec.convert`: numbers and flags
from their text, lists from commas; a value that does not fit its setting stops the start with
the variable's name, rather than running on a setting nobody asked for."""

from __future__ import annotations

import pytest

from app.base.config import Settings


def test_flags_are_read_from_each_of_their_words() -> None:
    for word, value in (("1", True), ("Yes", True), ("on", True), ("0", False), ("off", False)):
        assert Settings.from_env({"TRUST_PROXY": word}).trust_proxy is value, word


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("TRUST_PROXY", "maybe", "bool"),
        ("QUEUES", "many", "int"),
        ("QUEUES", "2.5", "int"),
        ("ABANDON_AFTER_DAYS", "soon", "float"),
    ],
)
def test_a_value_that_does_not_fit_is_refused_with_its_variable(
    variable: str, value: str, expected: str
) -> None:
    with pytest.raises(ValueError) as refused:
        Settings.from_env({variable: value})
    assert str(refused.value) == f"{variable}={value!r}: Expected `{expected}`, got `str`"


def test_unset_and_empty_variables_keep_the_defaults() -> None:
    assert Settings.from_env({}) == Settings() == Settings.from_env({"QUEUES": ""})
