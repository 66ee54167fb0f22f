"""An image whose header claims more pixels than a picture may have (a decompression bomb: a few
bytes that would decode to gigabytes) is refused in one line naming the file and the claimed size,
on the command line (exit 2, nothing recorded) and on the page (a message, no error panel); a
stored scan whose file became one is a notice, as a missing image is."""

from __future__ import annotations

import struct
import zlib

import pytest
from PIL import Image

from assistant.aids.scan.commands import align_scan
from assistant.aids.scan.events import scans_of
from assistant.aids.scan.picture import max_pixels
from assistant.aids.scan.widget import ScanWidget
from assistant.campaign.errors import CampaignError
from assistant.cli import main
from campaignkit import file_fingerprint


def header_only_png(path, width: int, height: int):
    """A PNG of a few dozen bytes whose header claims ``width`` x ``height`` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
    return path


# 60000x60000: over Pillow's error bound; 10000x10000: over its warning bound only (both refused)
SIZES = [(60000, 60000), (10000, 10000)]


@pytest.mark.parametrize("size", SIZES, ids=["error", "warning"])
def test_cli_align_names_file_and_claimed_size(guadalcanal, tmp_path, pts, capsys, recwarn, size):
    bomb = header_only_png(tmp_path / "big scan.png", *size)
    path = guadalcanal.path
    guadalcanal.close()
    before = file_fingerprint(path)
    args = ["scan", "align", str(path), str(bomb), "--name", "big"]
    for hex_, x, y in pts:
        args += ["--point", f"{hex_}:{x},{y}"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "Decompression" not in err, err
    assert f"{size[0]}x{size[1]} pixels" in err and "big scan.png" in err and f"{max_pixels():,}" in err
    assert file_fingerprint(path)[:2] == before[:2]
    assert not [w for w in recwarn if issubclass(w.category, Image.DecompressionBombWarning)]


def test_page_load_and_upload_refuse_in_one_line(guadalcanal, tmp_path):
    bomb = header_only_png(tmp_path / "bomb.png", 60000, 60000)
    v = ScanWidget(guadalcanal, upload_dir=tmp_path / "uploads")
    before = guadalcanal.state.last_seq
    v.load(str(bomb))
    assert "60000x60000 pixels" in v.message.value and "ca-scan-error" in v.message.value
    v._on_upload({"new": ({"name": "phone.png", "content": memoryview(bomb.read_bytes())},)})
    assert "60000x60000 pixels" in v.message.value and "phone.png" in v.message.value
    assert v.image_size is None and v.errors.records == [] and guadalcanal.state.last_seq == before
    v.close()


def test_a_stored_scan_whose_file_became_a_bomb_is_a_notice(guadalcanal, photo, pts, capsys):
    align_scan(guadalcanal, photo, pts)
    header_only_png(photo, 60000, 60000)
    v = ScanWidget(guadalcanal)
    assert "60000x60000 pixels" in v.notices.value and v._layers == {} and v.errors.records == []
    v.close()
    assert "E" in scans_of(guadalcanal.state)
    path = guadalcanal.path
    guadalcanal.close()
    assert main(["scan", "list", str(path)]) == 0
    out = capsys.readouterr()
    assert "60000x60000 pixels" in out.out and len(out.out.splitlines()) == 1 and out.err == ""


def test_a_real_picture_at_the_bound_still_aligns(guadalcanal, photo, pts, monkeypatch):
    """The bound is Pillow's, not smaller: with Pillow's bound at the photo's own pixel count the
    photo (decoded whole) aligns, and one pixel less refuses it naming its size. (A picture at
    Pillow's real bound is some 89 million pixels: decoding one is no unit test.)"""
    pixels = 320 * 260
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", pixels)
    assert max_pixels() == pixels
    rec = align_scan(guadalcanal, photo, pts)
    assert rec.body.scan.width == 320
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", pixels - 1)
    with pytest.raises(CampaignError, match="claims 320x260 pixels"):
        align_scan(guadalcanal, photo, pts, name="again")
