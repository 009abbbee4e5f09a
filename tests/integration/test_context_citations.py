"""A context cites only what it shows: a session digest cut to fit the budget cites the lines left in it (issue 18)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from goodmemory import create_good_memory
from goodmemory.digest import digest_lines
from goodmemory.testing import FakeEmbedder, FrozenClock

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
SESSIONS = [
    ["The new kitchen cabinets from Hallam Joinery arrive on 14 May, order 55812.",
     "The plumber, Gareth Moss, quoted 640 pounds to move the sink 80 cm left.",
     "The worktop is 38 mm oak, 3.2 metres long, from Timberline in Sheffield.",
     "The electrician Priya Shah needs 2 extra sockets on the island, 16 amp."],
    ["The tiler Marek Nowak starts on 21 May and charges 35 pounds per square metre.",
     "The splashback is 4 square metres of 10 by 20 cm white metro tiles.",
     "The old boiler, a Worcester 24i from 2009, stays in the utility room.",
     "Building control reference BC-2291 covers the wall knocked through on 2 April."],
]


def _shown(sentence: str, text: str) -> bool:
    """Some of the sentence is in the text: its first three words, or the whole of it."""
    body = sentence.split(": ", 1)[-1]
    return " ".join(body.split()[:3]) in text


def test_a_digest_cut_short_cites_only_the_lines_it_shows() -> None:
    """Before: a digest shortened to fit ("Session digest (2025-03-01): user: The …") kept the citations of all
    its lines, so the block claimed turns it did not hold (and gold recall counted them)."""
    # the ranked list at full weight (the default fuses it at half), so that digests, which it finds, are packed
    mem = create_good_memory("sqlite://", embedder=FakeEmbedder(), clock=FrozenClock(T0 + timedelta(days=30)),
                             config={"context_settings": {"ranked_weight": 1.0}})
    try:
        for k, lines in enumerate(SESSIONS):
            # a digest is written for sessions of 8 turns or more
            turns = [t for i, c in enumerate(lines) for t in ({"role": "user", "content": c, "id": f"s{k}-{i}"},
                                                             {"role": "assistant", "content": "Noted, thanks."})]
            mem.remember(turns, user_id="u1", session_id=f"s{k}", at=T0 + timedelta(days=k))
        digests = {r.id: r for r in mem.list(user_id="u1", kinds=["episode"]) if r.metadata.get("digest")}
        assert digests, "the sessions must have digests for this test to mean anything"
        checked = 0
        for budget in range(40, 401, 5):
            ctx = mem.build_context("kitchen renovation: cabinets, plumber, tiles, boiler and sockets",
                                    user_id="u1", max_tokens=budget)
            for item in ctx.items:
                rec = digests.get(item.memory_id)
                if rec is None:
                    continue
                parsed = digest_lines(rec)
                assert parsed is not None
                lines = dict(parsed[1])
                checked += 1
                for m in item.source_message_ids:
                    assert _shown(lines[m], item.text), (budget, m, item.text)
        assert checked, "no digest was packed at any budget"
    finally:
        mem.close()
