"""The plot helpers' figures survive a static export of a notebook: ``jupyter nbconvert --to html
--execute`` of a small notebook that draws the supply and the ledger plots (restyled, then shown as
the cell's result) holds each as an embedded PNG image, with no pyplot and no widget involved."""

from __future__ import annotations

import base64
import os
import re
import subprocess
import sys
from pathlib import Path

from assistant.campaign import Campaign

ROOT = Path(__file__).resolve().parents[1]

CELLS = [
    "from assistant.campaign import Campaign\n"
    "from assistant.aids.supply.plots import supply_counts_plot\n"
    "from assistant.aids.ledger.plots import balance_plot\n"
    "campaign = Campaign.open({path!r}, readonly=True)",
    "ax = supply_counts_plot(campaign)\nax.set_title('Supply, restyled')\nax.figure",
    "balance_plot(campaign, side='Allied').figure",
    "campaign.close()",
]


def test_nbconvert_html_holds_each_plot_as_an_image(tmp_path):
    import nbformat

    c = Campaign.create(tmp_path / "g.campaign", game="witp", scenario="guadalcanal-1942")
    c.ledger.add("allies", "income", 40)
    c.advance("turn")
    c.ledger.add("allies", "loss", 7, item="mining")
    c.close()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(src.format(path=str(tmp_path / "g.campaign")))
                                         for src in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "plots.ipynb")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
               CAMPAIGN_ASSISTANT_HOME=str(tmp_path / "home"))
    out = subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--execute",
                          "--ExecutePreprocessor.timeout=300", str(tmp_path / "plots.ipynb")],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    html = (tmp_path / "plots.html").read_text(encoding="utf-8")
    images = re.findall(r'<img [^>]*src="data:image/png;base64,([A-Za-z0-9+/=\s]+)"', html)
    assert len(images) == 2, html[-3000:]
    for b64 in images:
        assert base64.b64decode(b64)[:8] == b"\x89PNG\r\n\x1a\n"
    assert "NotebookFigure" not in html and "Traceback" not in html  # the image, not the object's repr
