"""A damaged image never breaks a page. An image is decoded whole before its alignment is
recorded: a truncated or corrupt file (its header reads, its pixels do not) is refused in one line
naming it, on the command line (exit 2) and on the page (its message), with nothing recorded and,
for an upload, nothing left on disk. A stored scan whose file was damaged since is one notice line
in the scan panel, and the rest of the page (the other scans, loading and aligning) works."""

from __future__ import annotations

import os

import pytest
from PIL import Image

from assistant.aids.scan.commands import align_scan
from assistant.aids.scan.events import scans_of
from assistant.aids.scan.render import notice
from assistant.aids.scan.widget import ScanWidget
from assistant.cli import main
from campaignkit import file_fingerprint


def truncated(photo, path):
    """The photo's first 60%: its header (and so its size) reads, its pixels end early."""
    data = photo.read_bytes()
    path.write_bytes(data[: len(data) * 6 // 10])
    return path


def corrupt(photo, path):
    """The photo with bytes of its compressed pixels scrambled: the header reads, the data does not."""
    data = bytearray(photo.read_bytes())
    for i in range(200, 260):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))
    return path


DAMAGE = {"truncated": truncated, "corrupt": corrupt}


def test_the_damaged_files_read_as_pictures_until_decoded(photo, tmp_path):
    """The damage is the kind only a whole decode finds: Pillow opens each and gives its size."""
    for name, damage in DAMAGE.items():
        bad = damage(photo, tmp_path / f"{name}.png")
        with Image.open(bad) as im:
            assert im.size == (320, 260)
            with pytest.raises(OSError):
                im.load()


@pytest.mark.parametrize("damage", DAMAGE)
def test_cli_align_refuses_a_damaged_image_in_one_line(guadalcanal, photo, pts, tmp_path, capsys, damage):
    bad = DAMAGE[damage](photo, tmp_path / "my scan.png")
    path = guadalcanal.path
    guadalcanal.close()
    before = file_fingerprint(path)
    args = ["scan", "align", str(path), str(bad)]
    for hex_, x, y in pts:
        args += ["--point", f"{hex_}:{x},{y}"]
    assert main(args) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and out.err.startswith("error: "), out.err
    assert "my scan.png" in out.err and "is damaged (" in out.err and "Traceback" not in out.err
    assert file_fingerprint(path)[:2] == before[:2]
    assert main(["scan", "list", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "no scans"


@pytest.mark.parametrize("damage", DAMAGE)
def test_page_load_refuses_a_damaged_image_in_one_line(guadalcanal, photo, tmp_path, damage):
    bad = DAMAGE[damage](photo, tmp_path / "bad.png")
    v = ScanWidget(guadalcanal, upload_dir=tmp_path / "uploads")
    before = guadalcanal.state.last_seq
    v.load(str(bad))
    assert "ca-scan-error" in v.message.value and "bad.png" in v.message.value and "is damaged (" in v.message.value
    assert v.image_size is None and v.errors.records == [] and guadalcanal.state.last_seq == before
    v.load(str(photo))  # the page goes on working
    assert v.image_size == (320, 260) and v.errors.records == []
    v.close()


@pytest.mark.parametrize("damage", [*DAMAGE, "not a picture"])
def test_a_refused_upload_leaves_nothing_on_disk(guadalcanal, photo, tmp_path, damage):
    content = (b"this is not a picture" if damage == "not a picture"
               else DAMAGE[damage](photo, tmp_path / "bad.png").read_bytes())
    uploads = tmp_path / "uploads"
    v = ScanWidget(guadalcanal, upload_dir=uploads)
    before = guadalcanal.state.last_seq
    v._on_upload({"new": ({"name": "from phone.png", "content": memoryview(content)},)})
    assert "ca-scan-error" in v.message.value and "from phone.png" in v.message.value
    assert v.message.value.count("<div") == 1  # one line
    assert not uploads.exists() or list(uploads.iterdir()) == []
    assert v.image_size is None and v.errors.records == [] and guadalcanal.state.last_seq == before
    v.close()


def test_a_refused_upload_keeps_the_good_file_of_that_name(guadalcanal, photo, tmp_path):
    """An upload refused under the name of a picture already uploaded leaves that picture as it was."""
    uploads = tmp_path / "uploads"
    v = ScanWidget(guadalcanal, upload_dir=uploads)
    good = photo.read_bytes()
    v._on_upload({"new": ({"name": "scan.png", "content": memoryview(good)},)})
    assert (uploads / "scan.png").read_bytes() == good
    bad = truncated(photo, tmp_path / "bad.png").read_bytes()
    v._on_upload({"new": ({"name": "scan.png", "content": memoryview(bad)},)})
    assert "ca-scan-error" in v.message.value
    assert sorted(p.name for p in uploads.iterdir()) == ["scan.png"] and (uploads / "scan.png").read_bytes() == good
    v.close()


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_stored_scan_damaged_since_is_one_notice_and_the_page_works(guadalcanal, photo, pts, tmp_path,
                                                                       capsys, damage):
    other = tmp_path / "other.png"
    other.write_bytes(photo.read_bytes())
    align_scan(guadalcanal, photo, pts, name="hurt")
    align_scan(guadalcanal, other, pts, name="fine")
    DAMAGE[damage](photo, photo)  # in place: the file the scan was aligned on
    st = photo.stat()
    os.utime(photo, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # seen as changed, whatever the clock
    v = ScanWidget(guadalcanal)
    assert v.errors.records == []
    notes = v.notices.value
    assert notes.count("ca-scan-notice") == 1 and "scan hurt:" in notes and "is damaged (" in notes, notes
    assert list(v._layers) == ["fine"]  # the other scan is drawn
    assert sorted(v.scans.options) == ["fine", "hurt"]
    v.load(str(other))  # loading and aligning still work
    assert v.image_size == (320, 260)
    assert v.remove("hurt") is not None and "hurt" not in scans_of(guadalcanal.state)
    assert v.errors.records == [] and "ca-scan-notice" not in v.notices.value
    v.close()
    msg = notice("fine", scans_of(guadalcanal.state)["fine"])
    assert msg is None


def test_a_stored_scan_damaged_since_is_named_by_scan_list(guadalcanal, photo, pts, capsys):
    align_scan(guadalcanal, photo, pts)
    truncated(photo, photo)
    path = guadalcanal.path
    guadalcanal.close()
    assert main(["scan", "list", str(path)]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("E: ") and "is damaged (" in out.out and len(out.out.splitlines()) == 1 and out.err == ""


def test_a_stored_scan_that_fails_to_draw_is_a_notice(guadalcanal, photo, pts, monkeypatch):
    """Whatever goes wrong drawing one scan (here: the warp itself fails) is that scan's notice line."""
    from assistant.aids.scan import widget as scan_widget

    align_scan(guadalcanal, photo, pts)

    def broken(scan, *a, **k):
        raise OSError("image file is truncated")

    monkeypatch.setattr(scan_widget, "warp", broken)
    v = ScanWidget(guadalcanal)
    assert v.errors.records == [] and v._layers == {}
    assert v.notices.value.count("ca-scan-notice") == 1 and "image file is truncated" in v.notices.value
    v.close()
