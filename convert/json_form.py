"""Messages to JSON dicts the way this product writes every JSON it prints.

Every field without presence is printed, defaults included (seat 0, dealer 0, empty lists),
so a reader never has to know proto3's defaults; a message field or ``optional`` field left
unset stays absent, which keeps meaning (no ``nextHand``: no claimed win is legal).
`convert.json_write` writes the same dicts from rules_core results.
"""

from __future__ import annotations

from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message


def message_dict(message: Message) -> dict:
    """The proto3 JSON form of a message, with every field that has no presence printed."""
    return MessageToDict(message, always_print_fields_with_no_presence=True)
