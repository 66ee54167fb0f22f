"""``campaign serve`` never leaves orphans. Voila and its kernels end with it on
SIGHUP (the terminal closed), SIGKILL (nothing of serve runs any more: Voila gets its parent-death
signal and a watchdog; kernels follow their parent, Voila) and SIGTERM after the reader of its output
has gone (printing raises BrokenPipeError before the stop). Afterwards no process started with the
test's CAMPAIGN_ASSISTANT_HOME remains and the port is free. Waits are bounded polls."""

from __future__ import annotations

import signal

import pytest

from assistant.ui.server import port_free
from uikit import campaign_cli, kernel_pids, kernels_of, pids_alive, start_serve, wait_until

pytestmark = [pytest.mark.serves, pytest.mark.timeout(300)]


def serve_with_kernels(tmp_path):
    home = tmp_path / "home"
    file = tmp_path / "orphans.campaign"
    r = campaign_cli("new", str(file), "--game", "witp", home=home)
    assert r.returncode == 0, r.stderr
    served = start_serve(home, str(file), preheat=True)
    assert wait_until(lambda: len(kernel_pids(home)) >= 1, 90), "no preheated kernel started"
    port = int(served.base.rsplit(":", 1)[1])
    everything = kernels_of(home)  # Voila, its kernels and serve itself
    assert served.proc.pid in everything and len(everything) >= 3, everything
    return served, home, port, everything


def assert_nothing_left(served, home, port, everything):
    gone = wait_until(lambda: not pids_alive(everything) and not kernels_of(home), 30, 0.2)
    left = pids_alive(everything) + kernels_of(home)
    if not gone:  # clean up before failing, so one failure leaves no orphans behind either
        for pid in set(left):
            try:
                import os

                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    assert gone, f"processes left: {sorted(set(left))}"
    assert wait_until(lambda: port_free(port), 15, 0.2), f"port {port} still taken"


def reap(served) -> None:
    """Whatever a test did, leave no `campaign serve` of its own behind."""
    if served.proc.poll() is None:
        served.proc.kill()
    served.proc.wait(timeout=10)


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGKILL], ids=["SIGHUP", "SIGKILL"])
def test_serve_killed_by_a_signal_leaves_no_process_and_frees_the_port(tmp_path, sig):
    served, home, port, everything = serve_with_kernels(tmp_path)
    try:
        served.proc.send_signal(sig)
        served.proc.wait(timeout=60)
        assert_nothing_left(served, home, port, everything)
    finally:
        reap(served)


def test_sigterm_after_the_reader_of_its_output_has_gone_still_stops_everything(tmp_path):
    served, home, port, everything = serve_with_kernels(tmp_path)
    try:
        served.proc.stdout.close()  # the pipe's reader is gone: serve's next print fails
        served.proc.send_signal(signal.SIGTERM)
        served.proc.wait(timeout=60)
        assert_nothing_left(served, home, port, everything)
    finally:
        reap(served)
