"""Paths the served site never follows: a request whose path climbs out of its folder
(``..``, also percent-encoded as ``%2e%2e`` or ``..%2f``, even encoded twice) is answered 404 before
any handler runs -- tornado's static handlers answer such a path 403 and Voila's template handler
fails on it (500), though none serves a file outside its folder -- and a template file asked for
without Voila's ``<template>/static/<file>`` shape is not found either (Voila's handler asserts it).
"""

from __future__ import annotations

import os
from urllib.parse import unquote

from tornado import web

DECODINGS = 3  # percent-decodings tried: %2e, %252e, %25252e


def climbs_out(path: str) -> bool:
    """``path`` (as sent, percent-encoded) has a ``..`` segment, once decoded up to ``DECODINGS``
    times (``/`` and ``\\`` both separate segments), or a NUL byte."""
    text = path
    for _ in range(DECODINGS + 1):
        if "\x00" in text or ".." in text.replace("\\", "/").split("/"):
            return True
        decoded = unquote(text)
        if decoded == text:
            return False
        text = decoded
    return False


def template_static(base: type) -> type:
    """Voila's template file handler ``base`` (``/voila/templates/<template>/static/<file>``) with
    any other shape answered 404 (Voila's asserts it: 500)."""

    class TemplateStatic(base):
        def parse_url_path(self, path: str) -> str:
            parts = path.split("/", 2)
            if len(parts) != 3 or parts[1] != "static" or not parts[0] or not parts[2]:
                raise web.HTTPError(404)
            return super().parse_url_path(path)

        @classmethod
        def get_absolute_path(cls, root: str, path: str) -> str:
            parts = os.path.normpath(path).split(os.path.sep, 2)
            if len(parts) != 3 or parts[1] != "static":
                raise web.HTTPError(404)
            return super().get_absolute_path(root, path)

    TemplateStatic.__name__ = TemplateStatic.__qualname__ = base.__name__
    return TemplateStatic
