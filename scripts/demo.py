"""Replay a short conversation into GoodMemory and print a cited context.

    python scripts/demo.py [--url sqlite:///demo.db]
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime

from goodmemory import create_good_memory

SESSIONS = [
    ("s1", datetime(2025, 3, 2, 10, tzinfo=UTC), "travel", [
        {"role": "user", "content": "Hi! I'm Ana Souza, I work as an ICU nurse and I live in Lisbon."},
        {"role": "assistant", "content": "Nice to meet you, Ana. How can I help?"},
        {"role": "user", "content": "I prefer a window seat, and please keep answers short with bullet points."},
        {"role": "user", "content": "My booking reference for the Madrid trip is QX7R2P. I still need to renew my passport."},
    ]),
    ("s2", datetime(2025, 6, 14, 18, tzinfo=UTC), "work", [
        {"role": "user", "content": "Actually I moved to Porto in May."},
        {"role": "user", "content": "I renewed my passport last week."},
    ]),
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--url", default="sqlite://", help="storage URL (default: in-memory SQLite)")
    args = ap.parse_args(argv)
    with create_good_memory(args.url) as memory:
        for session_id, at, domain, turns in SESSIONS:
            res = memory.remember(turns, user_id="ana", session_id=session_id, domain=domain, at=at)
            for d in res.decisions:
                if d.candidate is not None:
                    print(f"[{session_id}] {d.action.value:9s} {d.candidate.text}  ({d.reason})")
        query = "Book me a flight to Madrid next month"
        ctx = memory.build_context(query, user_id="ana", domain="travel", max_tokens=300,
                                   at=datetime(2025, 7, 1, tzinfo=UTC))
        print(f"\nbuild_context({query!r}, max_tokens=300) -> {ctx.tokens} tokens\n")
        print(ctx.text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
