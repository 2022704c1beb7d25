"""msgspec's validation errors in the words of the person who sent the request.

msgspec says "Expected `int` >= 0 - at `$.seed`"; a player (or a program's author) reads
"'seed' must be a whole number of at least 0." Anything not recognised is kept as msgspec said
it, without its backquotes.
"""

from __future__ import annotations

import re

_KINDS = {
    "int": "a whole number",
    "float": "a number",
    "str": "text",
    "bool": "true or false",
    "array": "a list",
    "object": "an object",
    "null": "left out (null)",
}
_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$")
_TYPE = re.compile(r"^Expected `(?P<want>[^`]+)`, got `(?P<got>[^`]+)`$")
_BOUND = re.compile(
    r"^Expected `(?P<want>[^`]+)`(?P<length> of length)? (?P<op>>=|<=|>|<) (?P<n>\S+)$"
)
_MISSING = re.compile(r"^Object missing required field `(?P<field>[^`]+)`$")
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<field>[^`]+)`$")
_ENUM = re.compile(r"^Invalid enum value (?P<value>.+)$")
_OPS = {">=": "at least", "<=": "at most", ">": "more than", "<": "less than"}


def kinds(types: str) -> str:
    """`int | null` as 'a whole number or left out (null)'."""
    return " or ".join(_KINDS.get(t.strip(), t.strip()) for t in types.split("|"))


def plainly(error: object) -> str:
    """A validation error as one sentence, naming where in the body it is."""
    found = _AT.match(str(error).strip())
    what, path = (found.group("what"), found.group("path")) if found else (str(error), None)
    place = f"'{path.lstrip('.')}'" if path else "The body"
    if m := _TYPE.match(what):
        return f"{place} must be {kinds(m['want'])}, not {kinds(m['got'])}."
    if m := _BOUND.match(what):
        n = m["n"]
        if m["length"]:
            unit = "characters" if m["want"] == "str" else "items"
            return f"{place} must have {_OPS[m['op']]} {n} {unit}."
        return f"{place} must be {kinds(m['want'])} of {_OPS[m['op']]} {n}."
    if m := _MISSING.match(what):
        return f"{place} needs '{m['field']}'."
    if m := _UNKNOWN.match(what):
        return f"{place} has no field '{m['field']}'."
    if m := _ENUM.match(what):
        return f"{place} cannot be {m['value']}."
    sentence = str(error).replace("`", "")
    return sentence if sentence.endswith(".") else f"{sentence}."
