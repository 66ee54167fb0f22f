"""A child process for the reliability tests: appends notes to a campaign and prints each
acknowledged (committed) seq on stdout, flushed, right after the commit.

    python -m tests.campaign._writer FILE TAG COUNT
"""

import sys

from assistant.campaign import Campaign


def main(path: str, tag: str, count: int) -> None:
    c = Campaign.open(path)
    print("ready", flush=True)
    for i in range(count):
        rec = c.add_note(f"{tag} {i}")
        print(f"{rec.seq} {tag} {i}", flush=True)
    c.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
