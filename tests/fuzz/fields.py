"""Valid messages mutated field by field: every field of the message tree, reached through its
descriptor, set to the values a careless or hostile client would send."""

from __future__ import annotations

import math
import random

from google.protobuf.descriptor import FieldDescriptor as F

INT32_EXTREMES = (0, -1, 1, 3, 4, 5, 7, 99, 1000, 2**31 - 1, -(2**31), 2**31 - 2, -(2**31) + 1)
ENUM_EXTREMES = (0, -1, 1, 2, 99, 2**31 - 1, -(2**31))
DOUBLE_EXTREMES = (
    math.nan,
    -math.nan,
    math.inf,
    -math.inf,
    -0.0,
    0.0,
    0.25,
    0.5,
    -3.5,
    1e9,
    1e308,
    -1e308,
    5e-324,
    2.0**53 + 1,
)
STRING_EXTREMES = ("", "classic", "Classic", "lezi ", " sankou", "\x00", "中文", "\U0001f004", "x" * 300, "%s%n{}")


def slots(message, path=()):
    """Every (path, field) of a message tree; a path is a tuple of (field name, index or None)."""
    for field in message.DESCRIPTOR.fields:
        yield path, field
        if field.message_type is None:
            continue
        if field.is_repeated:
            for index, child in enumerate(getattr(message, field.name)):
                yield from slots(child, path + ((field.name, index),))
        elif message.HasField(field.name):
            yield from slots(getattr(message, field.name), path + ((field.name, None),))


def reach(message, path):
    for name, index in path:
        message = getattr(message, name) if index is None else getattr(message, name)[index]
    return message


def _scalar(rng: random.Random, field, budget: int):
    kind = field.type
    if kind == F.TYPE_ENUM:
        values = [v.number for v in field.enum_type.values]
        return rng.choice(ENUM_EXTREMES + (max(values), max(values) + 1))
    if kind in (F.TYPE_DOUBLE, F.TYPE_FLOAT):
        value = rng.choice(DOUBLE_EXTREMES)
        return value if kind == F.TYPE_DOUBLE or not math.isfinite(value) or abs(value) < 3e38 else math.inf
    if kind == F.TYPE_BOOL:
        return rng.random() < 0.5
    if kind == F.TYPE_STRING:
        if rng.random() < 0.15:
            return "y" * rng.choice((257, 4096, min(65536, budget), max(1, budget)))
        return rng.choice(STRING_EXTREMES)
    return rng.choice(INT32_EXTREMES)


def mutate_field(rng: random.Random, message, budget: int) -> None:
    """Change one field somewhere in ``message``, in place: an extreme value, a flood of copies,
    a cleared or emptied sub-message, a duplicated entry."""
    choices = list(slots(message))
    if not choices:  # ListProfilesRequest has no field
        return
    path, field = rng.choice(choices)
    parent = reach(message, path)
    name = field.name
    if field.message_type is not None:
        target = getattr(parent, name)
        if field.is_repeated:
            choice = rng.random()
            if choice < 0.3:
                del target[:]
            elif choice < 0.6 and len(target):
                entry = target[rng.randrange(len(target))]
                for _ in range(rng.choice((1, 2, 5, 50))):
                    target.add().CopyFrom(entry)
            else:
                mutate_field(rng, target.add(), budget)
        elif rng.random() < 0.3:
            parent.ClearField(name)
        else:
            target.SetInParent()
            mutate_field(rng, target, budget)
        return
    if field.is_repeated:
        target = getattr(parent, name)
        copies = rng.choice((0, 1, 5, 15, 100, 1000, 10_000, 100_000))
        copies = min(copies, max(1, budget // 11))
        del target[:]
        value = _scalar(rng, field, 64)
        target.extend([value] * copies if rng.random() < 0.7 else [_scalar(rng, field, 64) for _ in range(copies)])
        return
    setattr(parent, name, _scalar(rng, field, budget))
