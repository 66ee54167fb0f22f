"""Opening a scan's image with Pillow, its header's claimed size checked first, and reading it
whole before anything is recorded.

An image file says how many pixels it holds in its header; decoding a header that claims far more
than any scan (60000x60000 is 3.6 billion pixels, some 14 GB decoded) would exhaust the machine.
Pillow guards against it (a ``DecompressionBombWarning`` above ``Image.MAX_IMAGE_PIXELS``, an
error at twice that); here either is one ``CampaignError`` naming the file and the size its header
claims, before any pixel is decoded.

A header that reads says nothing of the pixels after it: a truncated or corrupt file opens, gives
its size, and fails only when decoded ("image file is truncated"). ``whole_size`` decodes every
pixel (``Image.load``) and refuses such a file in one line naming it; ``damage`` is the same check
of a stored scan's file, kept per file version so a page that redraws does not decode it again.
"""

from __future__ import annotations

import io
import struct
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional, Union

from PIL import Image

from ...campaign.errors import CampaignError

TOO_LARGE = (Image.DecompressionBombWarning, Image.DecompressionBombError)
Source = Union[Path, bytes]  # an image file, or an image's bytes (an upload not yet written)


def max_pixels() -> int:
    """The most pixels an image may claim: Pillow's own bound (its ``MAX_IMAGE_PIXELS``)."""
    return int(Image.MAX_IMAGE_PIXELS or 0) or 2**31


def _stream(source: Source):
    return io.BytesIO(source) if isinstance(source, (bytes, bytearray, memoryview)) else source


@contextmanager
def open_image(source: Source, name: Optional[str] = None) -> Iterator[Image.Image]:
    """``Image.open(source)`` for the block; a header claiming more than ``max_pixels()`` is a
    CampaignError naming the file (``name``, else the path) and the claimed size (nothing decoded)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(_stream(source)) as im:
                yield im
        except TOO_LARGE:
            raise CampaignError(too_large_line(source, name)) from None


def whole_size(source: Source, name: Optional[str] = None) -> tuple[int, int]:
    """(width, height) of the picture, every pixel of it decoded: a file that is not a picture, a
    header claiming too many pixels, and a truncated or corrupt file are each one CampaignError
    naming it (``name``, else the path). A file that cannot be opened at all is the OSError
    opening it gave."""
    from PIL import UnidentifiedImageError

    shown = repr(name if name is not None else str(source))
    try:
        with open_image(source, name) as im:
            size = im.size
            im.load()
    except (CampaignError, FileNotFoundError, PermissionError, IsADirectoryError):
        raise  # the file itself cannot be opened: the caller names it
    except UnidentifiedImageError:
        raise CampaignError(f"image {shown} is not a picture Pillow can read") from None
    except MemoryError:
        raise CampaignError(f"image {shown} is too large to decode on this machine "
                            "(scan it at a lower resolution)") from None
    except Exception as e:  # noqa: BLE001 - whatever the decoder says of damaged data: truncated, broken stream
        raise CampaignError(f"image {shown} is damaged ({_reason(e)}): save or copy it again") from None
    return int(size[0]), int(size[1])


def _reason(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else "it cannot be decoded"


_DAMAGE: dict[str, tuple[tuple[int, int], Optional[str], Optional[tuple[int, int]]]] = {}


def damage(path: Path) -> tuple[Optional[str], Optional[tuple[int, int]]]:
    """(what is wrong with the picture at ``path``, its size): (None, size) when it decodes whole,
    else (one line, None). Kept per file version (modification time and size), so each version of a
    file is decoded once however often a page redraws. ``OSError`` if the file cannot be opened."""
    st = Path(path).stat()
    key, version = str(path), (st.st_mtime_ns, st.st_size)
    kept = _DAMAGE.get(key)
    if kept is not None and kept[0] == version:
        return kept[1], kept[2]
    try:
        problem, size = None, whole_size(Path(path))
    except CampaignError as e:
        problem, size = str(e), None
    if len(_DAMAGE) > 64:
        _DAMAGE.clear()
    _DAMAGE[key] = (version, problem, size)
    return problem, size


def too_large_line(source: Source, name: Optional[str] = None) -> str:
    size = claimed_size(source)
    claimed = f"{size[0]}x{size[1]} pixels" if size else "more pixels than it can open"
    shown = name if name is not None else str(source)
    return (f"image {shown!r} claims {claimed}: a picture may have at most {max_pixels():,} pixels "
            "(scan it at a lower resolution)")


def claimed_size(source: Source) -> Optional[tuple[int, int]]:
    """(width, height) as the image's header states them, read by the Pillow plugin that knows the
    format but without the size guard of ``Image.open`` (which refuses before saying the size);
    None if no plugin reads the header."""
    Image.init()
    in_memory = isinstance(source, (bytes, bytearray, memoryview))
    try:
        with (io.BytesIO(bytes(source)) if in_memory else open(source, "rb")) as fp:
            prefix = fp.read(16)
            for fmt in Image.ID:
                factory, accept = Image.OPEN[fmt]
                ok = accept is None or accept(prefix)
                if not ok or isinstance(ok, str):  # a str: the plugin's reason it cannot read this one
                    continue
                fp.seek(0)
                try:
                    return tuple(factory(fp, "" if in_memory else str(source)).size)  # type: ignore[return-value]
                except (SyntaxError, IndexError, TypeError, ValueError, struct.error, OSError):
                    continue
    except OSError:
        return None
    return None
