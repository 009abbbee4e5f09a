"""Builds the frozen read-path sets (fixtures/read_sets/*/cases.json) from the hand-written YAML.

The gold statements, facts and questions are hand-written (statements.yaml, conversations.yaml); only the
filler talk around them is generated here, from a fixed seed, so the built cases are reproducible. The built
JSON is committed and is what the runner reads: regenerating is never needed to run the eval, and the test
half must not change after it was first committed (issue 18).

    python scripts/build_read_sets.py
    python scripts/build_read_sets.py --preferences PRIVATE/statements.yaml --out PRIVATE/x/cases.json [--plain]
"""

from __future__ import annotations

import argparse
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1] / "fixtures" / "read_sets"

_PLACES = ["the office", "the garage", "my sister's place", "the library", "the post office", "the dentist",
           "the hardware store", "the station", "the park", "the supermarket", "the bank", "the council office"]
_PEOPLE = ["my manager", "my neighbour", "my brother", "an old friend", "my landlord", "a colleague",
           "my cousin", "the plumber", "my aunt", "my flatmate", "the new intern", "my accountant"]
_THINGS = ["the quarterly report", "the printer", "my tax forms", "the spare room", "the car's MOT",
           "a leaking gutter", "the team rota", "my inbox", "the recycling schedule", "a broken blind",
           "the kids' school forms", "the insurance renewal", "a slow laptop", "the bathroom grout",
           "my passport photos", "the fridge", "a software update", "the garden fence"]
_TIMES = ["this morning", "yesterday", "on Monday", "last night", "at lunch", "after work", "over the weekend",
          "earlier today", "on Thursday", "first thing"]
_FEELINGS = ["It took forever.", "Not my favourite way to spend an hour.", "At least it's done now.",
             "I'm a bit behind on everything.", "It was fine, nothing special.", "Still not sure it worked.",
             "Honestly it went better than expected.", "I'll have to go back again.", "What a day.",
             "I keep putting it off.", "It's always something.", "I think I've sorted it."]
# topical but preference-free: they share the questions' topics (food, travel, books, shows, shopping, gifts)
_TOPICAL = [
    "We walked past the new restaurant on the high street, there was a queue outside.",
    "My colleague just got back from a trip to Spain and showed us a hundred photos.",
    "I finished the book club book finally, the discussion is next week.",
    "There's a film festival in town next month, the posters are everywhere.",
    "My sister's birthday is coming up and she says she wants nothing, as usual.",
    "The supermarket moved all the aisles around again.",
    "I booked the car in for a service before the long drive in spring.",
    "We had people over on Saturday, it went late.",
    "My friend is planning a holiday and keeps sending me links to hotels.",
    "I saw an advert for a cooking class, might look into it.",
    "The airline changed our flight time again, third time now.",
    "My neighbour's kids are selling cookies for school.",
    "There's a new gym opening near the station.",
    "I tidied the bookshelf and found three books I never read.",
    "The office is doing a secret Santa this year.",
    "Someone recommended a podcast to me but I forgot the name.",
    "The hotel we stayed at last time has closed down apparently.",
    "I need to buy a present for a colleague who's leaving.",
    "We tried to get concert tickets but they sold out in minutes.",
    "My mum keeps asking what we want to do for the holidays.",
    "I walked around the market on Sunday, it was busy.",
    "My cousin opened a little shop selling homeware.",
    "The weather forecast for the weekend looks mixed.",
    "I spent an hour comparing phone plans and gave up.",
]
_USER_TEMPLATES = [
    "I went to {place} {time}. {feeling}",
    "Had a call with {person} {time} about {thing}. {feeling}",
    "Finally dealt with {thing} {time}. {feeling}",
    "{person_cap} asked me about {thing} {time}.",
    "Do you know a quick way to deal with {thing}? {feeling}",
    "I spent {time} sorting out {thing}.",
    "Reminder to self: {thing} still needs looking at.",
    "I ran into {person} at {place} {time}.",
    "{topical}",
    "{topical} {feeling}",
]
_ASSISTANT = [
    "That sounds like a lot to juggle. Is there anything I can help you plan?",
    "Good to hear it's moving. Want me to make a checklist for the rest?",
    "I can help with that. Would a short step-by-step be useful?",
    "Thanks for the update. Shall I remind you about it later this week?",
    "Those things always take longer than they should. What's next on your list?",
    "Happy to help. Let me know if you want me to draft something.",
    "Understood. Do you want to keep a note of it?",
    "That happens a lot. A quick call usually sorts it faster than email.",
    "Nice, one thing off the list. Anything else on your mind today?",
    "I see. If it keeps happening, it may be worth writing it down each time.",
    "Sounds like a busy week. Try to keep an evening free for yourself.",
    "Got it, thanks for letting me know.",
]
_SERVICE_USER = [
    "Sorry, give me a second, I'm looking for the email.",
    "Okay, thanks for checking.",
    "Hi, it's me again about the same thing.",
    "Is there a number I can call instead?",
    "I've been on hold for twenty minutes before this.",
    "Right, that makes sense.",
    "Can you hang on, someone's at the door.",
    "Fine, let's carry on.",
    "I'm not very good with these forms, to be honest.",
    "Could you repeat the last part?",
    "Do you need anything else from me?",
    "Hello again, where were we?",
    "Sorry about the wait, the kids were shouting.",
    "Okay. And how long does that usually take?",
    "I'll have a look tonight when I'm home.",
]
_SERVICE_ASSISTANT = [
    "No problem, take your time.",
    "Thanks. Let me note that down.",
    "Of course, I'm here to help with that.",
    "Understood. I'll keep that in mind for the request.",
    "Let me check what we can do.",
    "Usually a few working days, but it varies.",
    "Thanks for your patience.",
    "Got it. Anything else I should know?",
    "Sure, whenever you're ready.",
    "That's helpful, thank you.",
    "I'll include that. Is there anything else?",
    "Welcome back. Let's pick up where we left off.",
]


def _filler_user(rng: random.Random, topical: bool = True) -> str:
    t = rng.choice(_USER_TEMPLATES if topical else [t for t in _USER_TEMPLATES if "{topical}" not in t])
    person = rng.choice(_PEOPLE)
    return t.format(place=rng.choice(_PLACES), time=rng.choice(_TIMES), feeling=rng.choice(_FEELINGS),
                    person=person, person_cap=person[0].upper() + person[1:], thing=rng.choice(_THINGS),
                    topical=rng.choice(_TOPICAL))


def _iso(t: datetime) -> str:
    return t.isoformat()


def build_preferences(rng: random.Random, spec_path: Path | None = None, plain: bool = False) -> list[dict]:
    """The preference set; ``plain``: every statement is a turn of its own and the filler talk is off-topic
    (the easy shape, where dense turn retrieval is strong: what the read path must never fall below)."""
    spec = yaml.safe_load((spec_path or ROOT / "preferences" / "statements.yaml").read_text())
    out = []
    start = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
    for user in spec["users"]:
        n_sessions = max(12, len(user["prefs"]) + 2)
        slots = sorted(rng.sample(range(n_sessions), k=min(n_sessions, len(user["prefs"]))))
        # each preference goes into its own session (ten of the twelve), at a random position
        by_session = {s: p for s, p in zip(slots, rng.sample(user["prefs"], len(user["prefs"])), strict=False)}
        sessions = []
        for s in range(n_sessions):
            at = start + timedelta(days=4 * s, hours=rng.randint(0, 10))
            n_pairs = rng.randint(9, 13)
            where = rng.randrange(n_pairs) if s in by_session else -1
            turns = []
            for i in range(n_pairs):
                if i == where:
                    pref = by_session[s]
                    say = pref["say"]
                    if rng.random() < 0.4 and not plain:  # sometimes the statement sits inside a longer turn
                        say = _filler_user(rng) + " " + say
                    mid = f"{user['id']}-{pref['id']}"
                    turns.append({"id": mid, "role": "user", "content": say})
                    turns.append({"id": f"{user['id']}-s{s}-a{i}", "role": "assistant",
                                  "content": "Thanks for telling me, I'll keep that in mind."})
                    continue
                turns.append({"id": f"{user['id']}-s{s}-u{i}", "role": "user",
                              "content": _filler_user(rng, topical=not plain)})
                turns.append({"id": f"{user['id']}-s{s}-a{i}", "role": "assistant", "content": rng.choice(_ASSISTANT)})
            for j, t in enumerate(turns):
                t["timestamp"] = _iso(at + timedelta(minutes=j))
            sessions.append({"session_id": f"{user['id']}-s{s}", "at": _iso(at), "turns": turns})
        ask_at = start + timedelta(days=4 * n_sessions + 2)
        questions = [{"case_id": f"pref/{user['id']}/{p['id']}", "question": p["ask"], "cat": p["cat"],
                      "gold": [f"{user['id']}-{p['id']}"], "at": _iso(ask_at)} for p in user["prefs"]]
        out.append({"user_id": user["id"], "sessions": sessions, "questions": questions})
    return out


def build_service(rng: random.Random) -> list[dict]:
    spec = yaml.safe_load((ROOT / "service" / "conversations.yaml").read_text())
    out = []
    start = datetime(2025, 3, 3, 10, 0, tzinfo=UTC)
    for conv in spec["conversations"]:
        cid = conv["id"]
        placed: dict[int, list[tuple[str, str]]] = {}
        for k, f in enumerate(conv["facts"]):
            placed.setdefault(f["s"], []).append((f"{cid}-f{k}", f["say"]))
        for k, f in enumerate(conv.get("noise", [])):
            placed.setdefault(f["s"], []).append((f"{cid}-n{k}", f["say"]))
        sessions = []
        for s in range(conv["sessions"]):
            at = start + timedelta(days=3 * s + rng.randint(0, 2), hours=rng.randint(0, 8))
            mine = placed.get(s, [])
            n_pairs = rng.randint(6, 9) + len(mine)
            spots = dict(zip(sorted(rng.sample(range(n_pairs), len(mine))), rng.sample(mine, len(mine)), strict=True))
            turns = []
            for i in range(n_pairs):
                if i in spots:
                    mid, say = spots[i]
                    turns.append({"id": mid, "role": "user", "content": say})
                else:
                    turns.append({"id": f"{cid}-s{s}-u{i}", "role": "user", "content": rng.choice(_SERVICE_USER)})
                turns.append({"id": f"{cid}-s{s}-a{i}", "role": "assistant", "content": rng.choice(_SERVICE_ASSISTANT)})
            for j, t in enumerate(turns):
                t["timestamp"] = _iso(at + timedelta(minutes=j))
            sessions.append({"session_id": f"{cid}-s{s}", "at": _iso(at), "turns": turns})
        ask_at = start + timedelta(days=3 * conv["sessions"] + 3)
        q = {"case_id": f"service/{cid}", "question": conv["ask"], "cat": "service",
             "gold": [f"{cid}-f{k}" for k in range(len(conv["facts"]))], "at": _iso(ask_at)}
        out.append({"user_id": cid, "sessions": sessions, "questions": [q]})
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--preferences", type=Path, default=None,
                   help="build only a preference set from this statements.yaml (a private held-out set)")
    p.add_argument("--out", type=Path, help="with --preferences: the cases.json to write")
    p.add_argument("--plain", action="store_true",
                   help="with --preferences: statements as turns of their own among off-topic filler")
    args = p.parse_args(argv)
    if args.preferences is not None:
        if args.out is None:
            p.error("--preferences needs --out")
        cases = build_preferences(random.Random(f"goodmemory-read-sets-{args.preferences.parent.name}-v1"),
                                  args.preferences, plain=args.plain)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"set": "preferences", "users": cases}, indent=1, ensure_ascii=False) + "\n")
        print(f"{args.out}: {len(cases)} users, {sum(len(u['questions']) for u in cases)} questions")
        return
    for name, build in (("preferences", build_preferences), ("service", build_service)):
        cases = build(random.Random(f"goodmemory-read-sets-{name}-v1"))
        path = ROOT / name / "cases.json"
        path.write_text(json.dumps({"set": name, "users": cases}, indent=1, ensure_ascii=False) + "\n")
        n_q = sum(len(u["questions"]) for u in cases)
        n_t = sum(len(s["turns"]) for u in cases for s in u["sessions"])
        print(f"{path}: {len(cases)} users, {n_q} questions, {n_t} turns")


if __name__ == "__main__":
    main()
