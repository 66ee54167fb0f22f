"""The Voila server process: ``python -m assistant.ui.siteproc NOTEBOOKS [voila options]`` runs
``assistant.ui.site.main``.

Before anything imports jsonschema (Jupyter Server's event logger does), the optional IRI grammar
``rfc3987_syntax`` is marked absent. When present, jsonschema imports it at once and it builds its
lark grammar then: 1.3 s of every server start, for the "iri" format check, which no schema this
server validates uses. Marked absent, jsonschema leaves that one check out, as it does wherever the
package is not installed."""

import sys

sys.modules.setdefault("rfc3987_syntax", None)

from assistant.ui.site import main  # noqa: E402  (after the line above, which is the point)

if __name__ == "__main__":
    main()
