"""A served page keeps its kernel while it is being made, and a server runs a bounded number of
pages' kernels however many pages are opened.

Pages are opened as plain HTTP GETs of the render URL with the key (a GET makes the whole page: it
starts, or is handed, a kernel and runs the notebook in it). Kernels are counted, and the memory of
the server's processes summed, from ``/proc``. Waits are bounded polls, never speed claims.
"""

from __future__ import annotations

import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from assistant.paths import notebooks_dir
from uikit import copy_demo, http_request, kernel_pids, kernels_of, pids_alive, start_serve, wait_until

pytestmark = [pytest.mark.serves, pytest.mark.timeout(300)]


def key_cookie(status_headers) -> dict:
    """The cookies a page opened with the key sets (the key among them), as a browser keeps them."""
    status, headers, _ = status_headers
    assert status == 302, status
    return {"Cookie": "; ".join(c.split(";")[0] for c in headers["set-cookie"].split("\n") if c)}


def close_beacon(base: str, cookie: dict, page: str) -> int:
    """What a page's ``beforeunload`` sends: shut down the kernel named in the page (its status)."""
    kernel_id = re.search(r'"kernelId": "([0-9a-f-]+)"', page).group(1)
    xsrf = re.search(r"_xsrf=([^;]+)", cookie["Cookie"]).group(1)
    status, _, _ = http_request(f"{base}/voila/api/shutdown/{kernel_id}", method="POST",
                                headers={**cookie, "X-XSRFToken": xsrf}, body=b"")
    return status


def rss_mb(pids) -> float:
    """Resident memory of these processes, summed, in MB (VmRSS from /proc; gone ones count 0)."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def test_a_page_whose_notebook_runs_longer_than_the_cull_time_keeps_its_kernel(tmp_path, assistant_home):
    """Two pages opened at once, whose notebook runs 8 s, on a server that culls after 2 s: each page
    arrives whole, made in a kernel that is still running when it arrives. Once sent, with no page
    connecting (a GET does not), the kernels are culled: the clock had started then. (This server
    gives a page no longer than the cull time to connect first, where ``campaign serve`` gives it
    ``site.FIRST_CONNECT_GRACE`` at least, so that the clock is seen to start.)

    A page dropped by the browser while it is being made holds its kernel no longer: the clock
    starts when the request goes, though its notebook would run for a minute more."""
    import nbformat

    from assistant.ui.server import VoilaServer

    site = tmp_path / "site"
    site.mkdir()
    code = "import os, time\ntime.sleep(8)\nprint(f'kernel pid={os.getpid()}.')"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, str(site / "slow.ipynb"))
    nb.cells[0].source = code.replace("sleep(8)", "sleep(90)")
    nbformat.write(nb, str(site / "stuck.ipynb"))
    with VoilaServer(notebooks=site, preheat=False, log_path=tmp_path / "voila.log", cull_after=2,
                     extra_args=("--SiteKernelManager.first_connect_grace=0",)) as server:
        cookie = key_cookie(http_request(server.url("nope.ipynb")))
        alive_on_arrival: list[tuple[int, bool]] = []

        def open_page() -> None:
            status, _, body = http_request(f"{server.base_url}/voila/render/slow.ipynb", headers=cookie, timeout=120)
            assert status == 200, status
            assert "kernel pid=" in body, body[-2000:]  # the notebook ran to its end in its kernel
            pid = int(body.split("kernel pid=")[1].split(".")[0])
            alive_on_arrival.append((pid, bool(pids_alive([pid]))))

        pages = [threading.Thread(target=open_page) for _ in range(2)]
        for t in pages:
            t.start()
        for t in pages:
            t.join()
        assert len(alive_on_arrival) == 2 and all(alive for _, alive in alive_on_arrival), alive_on_arrival
        pids = [pid for pid, _ in alive_on_arrival]
        assert wait_until(lambda: not pids_alive(pids), 30), pids_alive(pids)
        assert wait_until(lambda: not kernel_pids(assistant_home), 30), kernel_pids(assistant_home)
        log = (tmp_path / "voila.log").read_text()
        assert len(re.findall(r"Culling kernel [0-9a-f-]+: no page connected", log)) == 2, log
        assert "Traceback" not in log
        # The browser gives up on a page still being made (here: after 6 s without a byte).
        with pytest.raises(TimeoutError):
            http_request(f"{server.base_url}/voila/render/stuck.ipynb", headers=cookie, timeout=6)
        assert kernel_pids(assistant_home), "the dropped page's kernel had not even started"
        assert wait_until(lambda: not kernel_pids(assistant_home), 40), kernel_pids(assistant_home)
    log = (tmp_path / "voila.log").read_text()  # (the dropped page's notebook fails as its kernel goes)
    assert len(re.findall(r"Culling kernel [0-9a-f-]+: no page connected", log)) == 3, log


# The pages a player opens: the campaign dashboard (preheated) and every aid page (the spare, or a
# kernel of its own); not the analysts' notebook.
PLAY_PAGES = sorted(p.name for p in notebooks_dir().glob("*.ipynb") if p.name != "analysis.ipynb")
LIMIT = 3
READY = 2  # kept ready by campaign serve: one preheated kernel, one spare (server.SPARE_KERNELS)
OPENED = 30
# A page's kernel right after its page is made holds ~90-210 MB (README, "Kernels"; up to ~335 MB
# once an aid has answered): 400 MB each is a generous ceiling. The bound is what the server held
# with its kept-ready kernels before any page, plus LIMIT such kernels -- ~1.2 GB above the start,
# where the 30 pages' kernels unbounded would add ~3-6 GB.
PAGE_KERNEL_MB = 400


@pytest.mark.slow
def test_thirty_pages_opened_at_once_run_at_most_the_limit_of_kernels_in_bounded_memory(tmp_path, demo_home):
    from assistant.ui.site import too_many_page

    home = tmp_path / "limit-home"
    file = copy_demo(demo_home, home)
    served = start_serve(home, str(file), "--max-kernels", str(LIMIT), preheat=True)
    try:
        assert wait_until(lambda: len(kernel_pids(home)) == READY, 120), kernel_pids(home)
        before = rss_mb(kernels_of(home))  # campaign serve, Voila and the kernels kept ready
        cookie = key_cookie(http_request(f"{served.base}/voila/render/nope.ipynb?token={served.token}"))
        samples: list[tuple[int, float]] = []
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                samples.append((len(kernel_pids(home)), rss_mb(kernels_of(home))))
                time.sleep(0.2)

        sampler = threading.Thread(target=sample)
        sampler.start()

        def open_page(name: str):
            return name, *http_request(f"{served.base}/voila/render/{name}", headers=cookie, timeout=180)

        try:
            with ThreadPoolExecutor(OPENED) as pool:
                results = list(pool.map(open_page, [PLAY_PAGES[i % len(PLAY_PAGES)] for i in range(OPENED)]))
            time.sleep(1)  # the kept-ready kernels that replace those taken have started
        finally:
            done.set()
            sampler.join()
        made = [r for r in results if r[1] == 200]
        busy = [r for r in results if r[1] == 503]
        assert len(made) == LIMIT and len(busy) == OPENED - LIMIT, [(n, s) for n, s, _, _ in results]
        for name, _, _, body in made:
            assert "Too many dashboards" not in body and "Traceback" not in body, name
        expected = too_many_page(LIMIT, "/")
        for name, _, _, body in busy:
            assert body == expected, (name, body)
        assert "Too many dashboards open — close one" in expected and "href='/'" in expected
        most = max(n for n, _ in samples)
        peak = max(mb for _, mb in samples)
        print(f"\n{len(samples)} samples: at most {most} kernels; {before:.0f} MB before, peak {peak:.0f} MB")
        assert most <= LIMIT + READY, samples
        assert peak <= before + LIMIT * PAGE_KERNEL_MB, (before, peak)
        # What a page still loading in a browser says (its template's script): accepted for a page's
        # kernel, with the key and the page's _xsrf; refused otherwise.
        xsrf = {"X-XSRFToken": re.search(r"_xsrf=([^;]+)", cookie["Cookie"]).group(1)}
        kernel_id = re.search(r'"kernelId": "([0-9a-f-]+)"', made[0][3]).group(1)

        def loading(kid: str, headers: dict) -> int:
            return http_request(f"{served.base}/voila/api/page-loading/{kid}", method="POST",
                                headers=headers, body=b"")[0]

        assert loading(kernel_id, {**cookie, **xsrf}) == 204
        assert loading("00000000-0000-0000-0000-000000000000", {**cookie, **xsrf}) == 404
        assert loading(kernel_id, cookie) == 403  # no _xsrf: not the page's own request
        assert loading(kernel_id, xsrf) in (302, 403)  # no key
        # Those pages are closed (their close beacons): their places are free again.
        assert [close_beacon(served.base, cookie, body) for _, _, _, body in made] == [204] * LIMIT
        assert wait_until(lambda: len(kernel_pids(home)) <= READY, 60), kernel_pids(home)
        with ThreadPoolExecutor(LIMIT + 1) as pool:
            again = list(pool.map(open_page, ["tables.ipynb"] * (LIMIT + 1)))
        assert sorted(s for _, s, _, _ in again) == [200] * LIMIT + [503]
    finally:
        code = served.stop()
    assert code == 0, "".join(served.output)
    log = served.log.read_text()
    assert log.count("refused: 3 pages' kernels running") == OPENED - LIMIT + 1



def test_max_kernels_bad_values_are_one_line_errors_and_help_names_the_default(tmp_path):
    from assistant.ui.server import DEFAULT_MAX_KERNELS
    from uikit import campaign_cli

    home = tmp_path / "home"
    for value in ("0", "-1", "two", "2.5", "", "١٢", "1e3"):
        r = campaign_cli("serve", "--demo", "--no-browser", "--max-kernels", value, home=home)
        assert r.returncode == 2, (value, r.stdout, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and f"--max-kernels {value} " in lines[0], r.stderr
    assert not (home / "data").exists()  # nothing was created
    r = campaign_cli("serve", "--help", home=home)
    assert r.returncode == 0 and "--max-kernels N" in r.stdout, r.stdout
    assert f"(default {DEFAULT_MAX_KERNELS}:" in " ".join(r.stdout.split()), r.stdout
