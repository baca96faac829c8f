"""The record of a class, as :mod:`webapp.classes.events` imports it: defined beside its store
in :mod:`webapp.stores.classes` (every other module imports it from :mod:`webapp.stores`)."""

from __future__ import annotations

from ..stores.classes import ClassRecord

__all__ = ["ClassRecord"]
