"""Opening a scan's image with Pillow, its header's claimed size checked first.

An image file says how many pixels it holds in its header; decoding a header that claims far more
than any scan (60000x60000 is 3.6 billion pixels, some 14 GB decoded) would exhaust the machine.
Pillow guards against it (a ``DecompressionBombWarning`` above ``Image.MAX_IMAGE_PIXELS``, an
error at twice that); here either is one ``CampaignError`` naming the file and the size its header
claims, before any pixel is decoded.
"""

from __future__ import annotations

import struct
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

from PIL import Image

from ...campaign.errors import CampaignError

TOO_LARGE = (Image.DecompressionBombWarning, Image.DecompressionBombError)


def max_pixels() -> int:
    """The most pixels an image may claim: Pillow's own bound (its ``MAX_IMAGE_PIXELS``)."""
    return int(Image.MAX_IMAGE_PIXELS or 0) or 2**31


@contextmanager
def open_image(path: Path) -> Iterator[Image.Image]:
    """``Image.open(path)`` for the block; a header claiming more than ``max_pixels()`` is a
    CampaignError naming the file and the claimed size (nothing decoded)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(path) as im:
                yield im
        except TOO_LARGE:
            raise CampaignError(too_large_line(path)) from None


def too_large_line(path: Path) -> str:
    size = claimed_size(path)
    claimed = f"{size[0]}x{size[1]} pixels" if size else "more pixels than it can open"
    return (f"image {str(path)!r} claims {claimed}: a picture may have at most {max_pixels():,} pixels "
            "(scan it at a lower resolution)")


def claimed_size(path: Path) -> Optional[tuple[int, int]]:
    """(width, height) as the image's header states them, read by the Pillow plugin that knows the
    format but without the size guard of ``Image.open`` (which refuses before saying the size);
    None if no plugin reads the header."""
    Image.init()
    try:
        with open(path, "rb") as fp:
            prefix = fp.read(16)
            for fmt in Image.ID:
                factory, accept = Image.OPEN[fmt]
                ok = accept is None or accept(prefix)
                if not ok or isinstance(ok, str):  # a str: the plugin's reason it cannot read this one
                    continue
                fp.seek(0)
                try:
                    return tuple(factory(fp, str(path)).size)  # type: ignore[return-value]
                except (SyntaxError, IndexError, TypeError, ValueError, struct.error, OSError):
                    continue
    except OSError:
        return None
    return None
