"""Batched references: a reference algorithm's state fields as arrays over ``(row, step)`` (:mod:`.fields`)."""

from symcot.algorithms.batched.fields import Fields

__all__ = ["Fields"]
