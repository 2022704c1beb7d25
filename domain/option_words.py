"""A game's options in a player's words, read from its options Struct's own declaration.

Each option declares a label (`msgspec.Meta(title=...)`), a help sentence (`description`), its
bounds (`ge`, `le`) and, for a quantity, its unit (`extra_json_schema={"x-unit": "seconds"}`).
From these come both what `GET /api/games/types` tells a client to build its form with and the
sentence a refused value is answered with ("Turn clock must be a whole number between 5 and
86,400 seconds."), so the form and the refusal cannot say different things.
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec


class OptionField(msgspec.Struct, frozen=True):
    """One option as declared: what a form and a refusal need of it."""

    name: str
    type: str
    label: str
    description: str | None
    minimum: int | float | None
    maximum: int | float | None
    unit: str | None
    choices: tuple[Any, ...] | None
    optional: bool  # `None` is a value: the option may be left empty

    def bounds(self) -> str | None:
        """'between 5 and 86,400 seconds', 'at least 1', or None."""
        unit = f" {self.unit}" if self.unit else ""
        low, high = self.minimum, self.maximum
        if low is not None and high is not None:
            return f"between {low:,} and {high:,}{unit}"
        if low is not None:
            return f"at least {low:,}{unit}"
        if high is not None:
            return f"at most {high:,}{unit}"
        return None

    def refusal(self) -> str:
        """What a player is told when the value given is not one this option takes."""
        empty = " (or left empty)" if self.optional else ""
        if self.choices:
            return f"{self.label} must be one of: {', '.join(map(str, self.choices))}{empty}."
        if self.type == "boolean":
            return f"{self.label} is either on or off (true or false)."
        if self.type in ("integer", "number"):
            kind = "a whole number" if self.type == "integer" else "a number"
            bounds = self.bounds()
            return f"{self.label} must be {kind}{f' {bounds}' if bounds else ''}{empty}."
        return f"{self.label} must be text{empty}."


@functools.cache
def option_fields(options_type: Any) -> tuple[OptionField, ...]:
    """Every option of an options Struct, in the order it declares them."""
    schema = msgspec.json.schema(options_type)
    if "$ref" in schema:
        schema = schema["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    fields = []
    for name, prop in schema.get("properties", {}).items():
        # An option that may be left out (`int | None`) has its bounds on its non-null branch.
        branches = prop.get("anyOf", [])
        solid = [p for p in branches if p.get("type") != "null"]
        optional = len(solid) < len(branches)
        if len(solid) == 1:
            prop = {**solid[0], **{k: v for k, v in prop.items() if k != "anyOf"}}
        choices = prop.get("enum")
        fields.append(
            OptionField(
                name=name,
                type=_json_type(prop),
                label=prop.get("title") or name.replace("_", " ").capitalize(),
                description=prop.get("description"),
                minimum=prop.get("minimum"),
                maximum=prop.get("maximum"),
                unit=prop.get("x-unit"),
                choices=tuple(choices) if choices else None,
                optional=optional,
            )
        )
    return tuple(fields)


def option_field(options_type: Any, name: str) -> OptionField | None:
    return next((f for f in option_fields(options_type) if f.name == name), None)


def _json_type(prop: dict[str, Any]) -> str:
    if "enum" in prop:
        return "string"
    kind = prop.get("type")
    if isinstance(kind, str):
        return kind
    choices = [p.get("type") for p in prop.get("anyOf", []) if p.get("type") != "null"]
    return str(choices[0]) if choices else "string"
