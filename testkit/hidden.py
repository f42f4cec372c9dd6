"""Faces a seat may not see, shuffled: the check that a bot decides from its seat's view
alone (the same answer whatever the hidden tiles are), shared by the rule sets' tests."""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import TypeVar

Face = TypeVar("Face")


def shuffle_unseen(
    faces: Sequence[Face], seen: Collection[int], rng: random.Random
) -> tuple[Face, ...]:
    """``faces`` with every slot not in ``seen`` shuffled among those slots."""
    hidden = [i for i in range(len(faces)) if i not in seen]
    out = list(faces)
    moved = [out[i] for i in hidden]
    rng.shuffle(moved)
    for i, face in zip(hidden, moved, strict=True):
        out[i] = face
    return tuple(out)
