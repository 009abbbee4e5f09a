"""The rule extractor: what it extracts, and what it must leave alone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goodmemory.extraction.base import ExtractionContext, Extractor
from goodmemory.extraction.rules import RuleExtractor
from goodmemory.models import Candidate, MemoryKind, Message

pytestmark = pytest.mark.unit

TS = datetime(2024, 3, 6, 10, 0, tzinfo=UTC)  # a Wednesday


def ctx(domain: str | None = None, existing: dict[str, str] | None = None) -> ExtractionContext:
    return ExtractionContext(user_id="u1", at=TS, domain=domain, existing=existing or {})


def run(*turns: tuple[str, str], domain: str | None = None, existing: dict[str, str] | None = None) -> list[Candidate]:
    msgs = [Message(role=r, content=c, id=f"m{i}", timestamp=TS) for i, (r, c) in enumerate(turns)]  # type: ignore[arg-type]
    # the rules alone: statements no rule matched are pending a family (tests/unit/test_statements.py)
    return RuleExtractor(statements=False).extract(msgs, ctx(domain, existing))


def one(text: str, key: str, **kw: object) -> Candidate:
    got = {c.key: c for c in run(("user", text), **kw)}  # type: ignore[arg-type]
    assert key in got, f"{key} not in {sorted(got)}"
    c = got[key]
    assert c.message_ids == ["m0"] and c.extractor == "rules" and c.role == "user" and c.timestamp == TS
    assert (c.value in c.text or c.kind == MemoryKind.OPEN_LOOP) and 0.5 <= c.confidence <= 0.95
    return c


def test_protocol() -> None:
    assert isinstance(RuleExtractor(), Extractor)
    assert RuleExtractor.name == "rules"


@pytest.mark.parametrize(
    ("text", "kind", "key", "value"),
    [
        ("Hi, I'm Ana Souza.", MemoryKind.PROFILE, "profile.name", "Ana Souza"),
        ("My name is Michael James Robertson.", MemoryKind.PROFILE, "profile.name", "Michael James Robertson"),
        ("Please call me Mike.", MemoryKind.PROFILE, "profile.preferred_name", "Mike"),
        ("I'm 34 years old.", MemoryKind.PROFILE, "profile.age", "34"),
        ("I work as a data scientist.", MemoryKind.PROFILE, "profile.occupation", "data scientist"),
        ("I work at Acme Corp.", MemoryKind.PROFILE, "profile.employer", "Acme Corp"),
        ("I live in Porto.", MemoryKind.PROFILE, "profile.home_city", "Porto"),
        ("I'm Brazilian.", MemoryKind.PROFILE, "profile.nationality", "Brazilian"),
        ("I speak Portuguese and English.", MemoryKind.PROFILE, "profile.languages", "Portuguese, English"),
        ("My wife Ana is a nurse.", MemoryKind.PROFILE, "relation.wife", "Ana"),
        ("My manager Tom wants the slides.", MemoryKind.PROFILE, "relation.manager", "Tom"),
        ("My daughter is 7.", MemoryKind.PROFILE, "relation.daughter.age", "7"),
        ("I have 10 years of experience in Kubernetes.", MemoryKind.PROFILE, "profile.expertise.kubernetes", "10 years of experience"),
        ("I love hiking in the mountains.", MemoryKind.PREFERENCE, "preference.like.hiking_in_the_mountains", "likes hiking in the mountains"),
        ("I can't stand loud music.", MemoryKind.PREFERENCE, "preference.like.loud_music", "dislikes loud music"),
        ("I prefer tea over coffee.", MemoryKind.PREFERENCE, "preference.choice.coffee_vs_tea", "tea"),
        ("Please keep it short.", MemoryKind.PREFERENCE, "preference.communication.length", "concise answers"),
        ("I like bullet points.", MemoryKind.PREFERENCE, "preference.communication.format", "bullet points"),
        ("Please reply in Portuguese.", MemoryKind.PREFERENCE, "preference.communication.language", "Portuguese"),
        ("I work best in the mornings.", MemoryKind.PREFERENCE, "preference.work.best_time", "in the mornings"),
        ("I'm vegetarian.", MemoryKind.PREFERENCE, "preference.diet.type", "vegetarian"),
        ("I use a wheelchair.", MemoryKind.PREFERENCE, "preference.accessibility.mobility", "uses a wheelchair"),
        ("I always fly with TAP.", MemoryKind.PREFERENCE, "preference.habit.fly_tap", "always flies with TAP"),
        ("My Chase checking account is 4429853327.", MemoryKind.FACT, "account.chase.checking", "4429853327"),
        ("My State Farm policy number is SF-789234501.", MemoryKind.FACT, "policy.state_farm.number", "SF-789234501"),
        ("My claim number is CLM-2024-88123.", MemoryKind.FACT, "claim.number", "CLM-2024-88123"),
        ("My Honda Civic plate is ABC-1234.", MemoryKind.FACT, "vehicle.honda_civic.plate", "ABC-1234"),
        ("My email is ana@example.com.", MemoryKind.FACT, "contact.email", "ana@example.com"),
        ("My cell is 503-555-8924.", MemoryKind.FACT, "contact.phone.cell", "503-555-8924"),
        ("My monthly budget is $2,000.", MemoryKind.FACT, "finance.monthly_budget", "$2,000"),
        ("I just bought a 2021 Toyota Corolla.", MemoryKind.FACT, "vehicle.toyota_corolla", "2021 Toyota Corolla"),
        ("My Visa card ending in 4417 was declined.", MemoryKind.FACT, "card.visa.last4", "4417"),
        # a named card needs no "card": "my Freedom Unlimited ending in 7823"
        ("I use my Freedom Unlimited ending in 7823 for groceries.", MemoryKind.FACT,
         "card.freedom_unlimited.last4", "7823"),
    ],
)
def test_extracts(text: str, kind: MemoryKind, key: str, value: str) -> None:
    c = one(text, key)
    assert c.kind == kind
    assert c.value == value


def test_allergy_is_high_importance() -> None:
    c = one("I'm allergic to peanuts.", "preference.diet.allergy.peanuts")
    assert c.value == "peanuts" and c.importance >= 0.9 and c.text == "User is allergic to peanuts."


def test_identifier_text_is_self_contained() -> None:
    c = one("My Honda Civic plate is ABC-1234.", "vehicle.honda_civic.plate")
    assert c.text == "User's Honda Civic plate is ABC-1234."
    assert "plate" in c.keywords and "license" in c.keywords


def test_appointment_date_resolved() -> None:
    c = one("My dentist appointment is next Tuesday at 3pm.", "appointment.dentist")
    assert c.value == "2024-03-12"
    assert c.metadata["date"] == "2024-03-12" and c.metadata["time"] == "15:00"
    assert c.text == "User has a dentist appointment on 2024-03-12 at 15:00."


def test_deadline() -> None:
    c = one("The report is due Friday.", "deadline.report")
    assert c.metadata["date"] == "2024-03-08" and "2024-03-08" in c.text


def test_seat_preference_is_domain_bound() -> None:
    c = one("I prefer aisle seats.", "preference.seat", domain="travel")
    assert c.value == "aisle" and c.transferable is False and c.domain == "travel"


def test_hedged_is_lower_confidence() -> None:
    sure = one("I live in Porto.", "profile.home_city")
    hedged = one("I think I live in Porto.", "profile.home_city")
    assert hedged.confidence < sure.confidence and hedged.confidence <= 0.6


def test_moved_is_correction() -> None:
    c = one("I moved to Lisbon in May.", "profile.home_city")
    assert c.value == "Lisbon" and c.is_correction and c.confidence >= 0.85


def test_no_longer_preference() -> None:
    c = one("I don't eat pork anymore.", "preference.diet.avoid.pork")
    assert c.is_correction and "no longer" in c.text


def test_open_loop_and_close_in_same_batch() -> None:
    cands = run(("user", "I need to renew my fishing permit by Friday."), ("user", "Great news, I finally renewed my fishing permit."))
    opened, closed = cands
    assert opened.kind == MemoryKind.OPEN_LOOP and opened.key == "task.renew_fishing_permit"
    assert opened.metadata["state"] == "open" and opened.metadata["date"] == "2024-03-08"
    assert closed.key == "task.renew_fishing_permit" and closed.closes == "task.renew_fishing_permit"
    assert closed.value == "closed" and closed.metadata["state"] == "closed" and closed.message_ids == ["m1"]


def test_close_against_existing() -> None:
    cands = run(("user", "I booked the hotel yesterday."), existing={"task.book_hotel_lisbon": "open"})
    assert [(c.key, c.closes, c.value) for c in cands] == [("task.book_hotel_lisbon", "task.book_hotel_lisbon", "closed")]


def test_close_without_open_loop_yields_nothing() -> None:
    assert run(("user", "I booked the hotel yesterday.")) == []


def test_remind_me() -> None:
    c = one("Remind me to call the bank.", "task.call_bank")
    assert c.kind == MemoryKind.OPEN_LOOP and c.value == "open"


def test_procedure() -> None:
    c = one("When you write code, always add type hints.", "procedure.write_code")
    assert c.kind == MemoryKind.PROCEDURE and c.transferable is True
    assert c.value == "always add type hints"


def test_assistant_confirmed() -> None:
    cands = run(("assistant", "Just to confirm, your home city is Porto?"), ("user", "Yes, that's right."))
    assert len(cands) == 1
    c = cands[0]
    assert (c.key, c.value, c.role, c.confirmed_by_user) == ("profile.home_city", "Porto", "assistant", True)
    assert c.message_ids == ["m0", "m1"]


def test_assistant_unconfirmed_or_own_name_ignored() -> None:
    assert run(("assistant", "Your home city is Porto."), ("user", "Hmm, let me think.")) == []
    assert run(("assistant", "My name is Sarah."), ("user", "Yes.")) == []


def test_system_and_tool_ignored() -> None:
    assert run(("system", "My name is Bob."), ("tool", "I live in Porto.")) == []


def test_answer_to_assistant_question() -> None:
    cands = run(("assistant", "Could you read me your policy number?"), ("user", "It's QK-310558742."))
    assert [(c.key, c.value, c.message_ids) for c in cands] == [("policy.number", "QK-310558742", ["m0", "m1"])]


def test_correction_against_existing() -> None:
    cands = run(("user", "Actually it's 5, not 4."), existing={"relation.daughter.age": "4"})
    assert [(c.key, c.value, c.is_correction) for c in cands] == [("relation.daughter.age", "5", True)]


@pytest.mark.parametrize(
    "text",
    [
        "What is my account number?",
        "If I were a doctor I would be rich.",
        "My brother said he lives in Berlin.",
        "I'm fine, thanks.",
        "I'm looking for a hotel.",
        "I'd like to open a checking account.",
        "I like that option.",
        "Sounds good, thanks!",
        "Can you help me?",
        "My password is hunter22.",
    ],
)
def test_conservative(text: str) -> None:
    assert run(("user", text)) == []


def test_secret_values_are_flagged() -> None:
    cands = run(("user", "My account number is 4111111111111111 and my card is 4111 1111 1111 1111."))
    assert all("secret_kinds" not in c.metadata or c.metadata["secret_kinds"] for c in cands)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["user", "assistant", "system", "tool"]), st.text(max_size=200)), max_size=6))
def test_never_raises_and_is_deterministic(turns: list[tuple[str, str]]) -> None:
    first = run(*turns)
    second = run(*turns)
    assert [c.model_dump() for c in first] == [c.model_dump() for c in second]
    for c in first:
        assert 0.5 <= c.confidence <= 0.95 and c.value and c.message_ids


_words = st.sampled_from(
    ["I", "my", "live", "in", "Porto", "need", "to", "call", "the", "bank", "love", "account", "is", "123456",
     "plate", "Honda", "Civic", "actually", "not", "anymore", "please", "always", "when", "you", ",", ".", "?"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_words, max_size=25).map(" ".join))
def test_never_raises_on_near_miss_sentences(text: str) -> None:
    for c in run(("user", text)):
        assert c.value in c.text or c.kind == MemoryKind.OPEN_LOOP


# ------------------------------------------------------------------ natural phrasings
def got(text: str, **kw: object) -> dict[str, Candidate]:
    return {c.key: c for c in run(("user", text), **kw)}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "employer", "occupation"),
    [
        ("Small update: I just started a new job at Bosch as a data engineer.", "Bosch", "data engineer"),
        ("I recently got a job at Siemens Energy as a project manager.", "Siemens Energy", "project manager"),
        ("I'm a software engineer at Spotify.", "Spotify", "software engineer"),
        ("I'm a nurse at St Mary's Hospital, mostly night shifts.", "St Mary's Hospital", "nurse"),
        ("I joined Acme as head of sales.", "Acme", "head of sales"),
        ("I've joined Globex as a senior designer.", "Globex", "senior designer"),
        ("I now work for the city council.", "the city council", None),
        ("I currently work at Vodafone.", "Vodafone", None),
    ],
)
def test_job_phrasings(text: str, employer: str, occupation: str | None) -> None:
    out = got(text)
    assert out["profile.employer"].value == employer
    if occupation:
        assert out["profile.occupation"].value == occupation


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("I live in New York.", "New York"),
        ("I live in Rio de Janeiro", "Rio de Janeiro"),
        ("I just moved to Frankfurt am Main.", "Frankfurt am Main"),
        ("I'm based in Santiago de Compostela these days.", "Santiago de Compostela"),
        ("I live in Los Angeles with my two kids.", "Los Angeles"),
        ("I live in Buenos Aires, and I work from home.", "Buenos Aires"),
        ("I now live in Den Haag.", "Den Haag"),
    ],
)
def test_multi_word_cities(text: str, city: str) -> None:
    assert got(text)["profile.home_city"].value == city


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("I actually live in Porto, not Lisbon.", "Porto"),
        ("I'm actually based in Valencia now.", "Valencia"),
        ("I live in Ghent, not Brussels.", "Ghent"),
    ],
)
def test_city_correction(text: str, city: str) -> None:
    c = got(text)["profile.home_city"]
    assert c.value == city and c.is_correction


def test_its_x_not_y_against_existing_slot() -> None:
    cands = run(("user", "It's Porto, not Lisbon."), existing={"profile.home_city": "Lisbon"})
    assert [(c.key, c.value, c.is_correction) for c in cands] == [("profile.home_city", "Porto", True)]
    assert run(("user", "It's Porto, not Lisbon.")) == []


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("I'm 34 and I live in Amsterdam", {"profile.age": "34", "profile.home_city": "Amsterdam"}),
        ("I'm 29, I work as a pharmacist and I live in Leeds.",
         {"profile.age": "29", "profile.occupation": "pharmacist", "profile.home_city": "Leeds"}),
        ("My wife and I live in Utrecht.", {"profile.home_city": "Utrecht"}),
        ("I live in Oslo but I work at Equinor.", {"profile.home_city": "Oslo", "profile.employer": "Equinor"}),
    ],
)
def test_joined_clauses(text: str, facts: dict[str, str]) -> None:
    out = got(text)
    assert {k: out[k].value for k in facts if k in out} == facts


@pytest.mark.parametrize(
    ("text", "seat"),
    [
        ("I always book a window seat on trains, I like watching the fields go by.", "window"),
        ("I'd like a window seat please", "window"),
        ("I'd prefer an aisle seat", "aisle"),
        ("I usually pick an aisle seat, my legs cramp otherwise.", "aisle"),
        ("I would like an exit row seat on the long leg.", "exit row"),
    ],
)
def test_seat_preferences(text: str, seat: str) -> None:
    for domain in ("travel", None):
        c = got(text, domain=domain)["preference.seat"]
        assert c.value == seat and c.transferable is False and c.kind == MemoryKind.PREFERENCE


@pytest.mark.parametrize("text", ["I never book a window seat.", "I'd hate a middle seat.", "Is a window seat free?"])
def test_seat_negatives(text: str) -> None:
    assert "preference.seat" not in got(text, domain="travel")


@pytest.mark.parametrize(
    "text",
    [
        "Please keep your answers short",
        "keep your replies brief",
        "no need for long explanations",
        "Please keep the responses concise, I'm on mobile.",
        "You can keep your answers brief.",
    ],
)
def test_length_preference_phrasings(text: str) -> None:
    out = got(text)
    assert out["preference.communication.length"].value == "concise answers"


def test_no_need_for_detail_is_not_detail() -> None:
    assert got("No need for detailed explanations.")["preference.communication.length"].value == "concise answers"


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("My Charité patient number is P-9666042.", "patient.charite.number", "P-9666042"),
        ("My Zürich Versicherung policy number is ZV-55120.", "policy.zurich_versicherung.number", "ZV-55120"),
        ("My Société Générale customer number is 88412093.", "customer.societe_generale.number", "88412093"),
    ],
)
def test_identifiers_after_non_ascii_names(text: str, key: str, value: str) -> None:
    assert got(text)[key].value == value


def test_diet_change_lands_on_the_diet_slot() -> None:
    c = one("I don't eat meat anymore.", "preference.diet.type")
    assert c.value == "no meat" and c.is_correction and "no longer eats meat" in c.text
    assert one("I don't eat meat.", "preference.diet.type").value == "no meat"
    assert one("I stopped eating meat last year.", "preference.diet.type").value == "no meat"
    again = one("I eat meat again.", "preference.diet.type")
    assert again.value == "eats meat" and again.is_correction
    assert one("I'm eating meat again these days.", "preference.diet.type").value == "eats meat"
    assert "preference.diet.avoid.pork" in got("I don't eat pork.")


def test_diet_change_retires_meat_likes() -> None:
    existing = {"preference.like.steak": "likes steak", "preference.like.jazz": "likes jazz"}
    out = got("I don't eat meat anymore.", existing=existing)
    assert out["preference.diet.type"].value == "no meat"
    retired = out["preference.like.steak"]
    assert "steak" not in retired.value and "steak" not in retired.text and retired.is_correction
    assert "preference.like.jazz" not in out
    veg = got("I'm vegetarian now.", existing={"preference.like.bacon_sandwiches": "likes bacon sandwiches"})
    assert "preference.like.bacon_sandwiches" in veg


@pytest.mark.parametrize(
    "text",
    ["I love live", "I like the", "I love to", "I really like my", "I hate when", "I love how"],
)
def test_like_junk_rejected(text: str) -> None:
    assert not [c for c in run(("user", text)) if c.key.startswith("preference.like")]


def test_like_real_objects_still_work() -> None:
    assert one("I'm a big fan of jazz, I go to concerts.", "preference.like.jazz").value == "likes jazz"
    assert one("I'm into bouldering.", "preference.like.bouldering").value == "likes bouldering"
    assert one("I love live music.", "preference.like.live_music").value == "likes live music"
    assert one("I enjoy cooking.", "preference.like.cooking").value == "likes cooking"


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I have an old 2016 ThinkPad T460.", "possession.thinkpad_t460", "2016 ThinkPad T460"),
        ("I drive a 2019 Honda Accord.", "vehicle.honda_accord", "2019 Honda Accord"),
        ("I just got a 2022 Ford F-150.", "vehicle.ford_f_150", "2022 Ford F-150"),
    ],
)
def test_owned_things_are_vehicles_only_when_the_make_is_a_car_make(text: str, key: str, value: str) -> None:
    c = one(text, key)
    assert c.value == value
    assert not any(k.startswith("vehicle.") for k in (x.key for x in run(("user", text)))) or key.startswith("vehicle.")


@pytest.mark.parametrize(
    ("text", "key", "value", "says"),
    [
        ("I'll go with the Surface Laptop. Is there a warranty on it?", "purchase.surface_laptop", "Surface Laptop",
         "User chose the Surface Laptop."),
        ("The fee seems fair. Let's go with the Silver Card.", "card.silver_card", "Silver Card",
         "User chose the Silver Card."),
        ("Ok, I'll take the Samsung QN90C then.", "purchase.samsung_qn90c", "Samsung QN90C", "User chose the Samsung QN90C."),
        ("I ended up buying the Dyson V15 last week.", "purchase.dyson_v15", "Dyson V15", "User bought the Dyson V15."),
    ],
)
def test_choices_and_purchases_of_named_products(text: str, key: str, value: str, says: str) -> None:
    c = one(text, key)
    assert c.kind == MemoryKind.FACT and c.value == value and c.text == says


@pytest.mark.parametrize(
    "text",
    ["I'll go with the flow.", "Let's go with the first option.", "I'll take the bus.", "I'll go with you."],
)
def test_choices_need_a_named_product(text: str) -> None:
    assert not any(c.key.startswith(("purchase.", "card.")) for c in run(("user", text)))


@pytest.mark.parametrize(
    ("text", "key", "value", "phrase"),
    [
        ("My passport expires on February 18th, 2025.", "passport.expiration", "2025-02-18", "February 18, 2025"),
        ("My driver's license is valid until June 30, 2027.", "license.expiration", "2027-06-30", "June 30, 2027"),
        ("The Apple warranty runs until March 15th, 2025.", "warranty.apple.expiration", "2025-03-15",
         "March 15, 2025"),
        ("Bosch warranty until October 3rd, 2026.", "warranty.bosch.expiration", "2026-10-03", "October 3, 2026"),
        ("My gym membership expires May 1, 2024.", "membership.gym.expiration", "2024-05-01", "May 1, 2024"),
        ("My visa expiration date is 12/31/2026.", "visa.expiration", "2026-12-31", "December 31, 2026"),
    ],
)
def test_expiry_dates(text: str, key: str, value: str, phrase: str) -> None:
    """When a document, membership or warranty runs out is a fact with a date people plan around."""
    c = one(text, key)
    assert c.kind == MemoryKind.FACT and c.value == value
    assert phrase in c.text and c.metadata["date"] == value
    assert "expir" in c.keywords and "renew" in c.keywords


@pytest.mark.parametrize(
    "text",
    [
        "My card is in my wallet.",
        "My passport is on the table.",
        "I keep my membership through work.",
        "The warranty covers the screen.",
        "My passport photo was taken on Monday.",
    ],
)
def test_expiry_needs_a_date_and_an_expiry_verb(text: str) -> None:
    assert not [c for c in run(("user", text)) if c.key.endswith(".expiration")]


def test_expiry_as_answer_to_the_assistants_question() -> None:
    cands = run(("assistant", "Visa expiry date?"), ("user", "July 4th, 2026."))
    assert [(c.key, c.value, c.message_ids) for c in cands] == [("visa.expiration", "2026-07-04", ["m0", "m1"])]
    assert cands[0].text.startswith("User's visa is valid until July 4, 2026")


def test_expiry_issued_by_the_assistant_is_kept() -> None:
    """An agent stating a warranty end date is a fact of the user's world, like an issued number."""
    cands = run(("assistant", "Today is May 2nd, 2024. Bosch warranty until May 2nd, 2026."),
                ("user", "I'll scan the receipt when I get home."))
    got = {c.key: c for c in cands}
    assert got["warranty.bosch.expiration"].value == "2026-05-02"
    assert got["warranty.bosch.expiration"].metadata.get("issued_by_assistant") is True


@pytest.mark.parametrize(
    ("turns", "key", "value", "says"),
    [
        ([("user", "I'm interested in an American Express card with travel rewards."),
          ("assistant", "We can offer the Silver Card or the Titanium Card."),
          ("user", "Let's go with the Silver Card.")],
         "card.amex_silver_card", "Amex Silver Card", "User chose the Amex Silver Card (American Express)."),
        ([("assistant", "Thanks for calling Chase. How can I help?"), ("user", "I'll take the Sapphire Reserve card.")],
         "card.chase_sapphire_reserve", "Chase Sapphire Reserve", "User chose the Chase Sapphire Reserve card."),
        # the product already names its issuer: nothing is added
        ([("user", "My bank is Chase."), ("user", "I'll go with the Amex Platinum Card.")],
         "card.amex_platinum_card", "Amex Platinum Card", "User chose the Amex Platinum Card."),
    ],
)
def test_a_card_chosen_by_product_name_gets_the_issuer_the_conversation_is_about(
    turns: list[tuple[str, str]], key: str, value: str, says: str
) -> None:
    got = {c.key: c for c in run(*turns)}
    assert key in got, sorted(got)
    assert got[key].value == value and got[key].text == says


def test_no_issuer_in_the_conversation_leaves_the_card_name_alone() -> None:
    got = {c.key: c for c in run(("user", "Let's go with the Silver Card."))}
    assert got["card.silver_card"].value == "Silver Card"


@pytest.mark.parametrize(
    ("turns", "key", "value"),
    [
        ([("user", "So my optician appointment is on March 12th at 3pm?"), ("assistant", "Yes, that's right.")],
         "appointment.optician", "2024-03-12"),
        ([("user", "And my passport expires February 18th, 2025?"), ("assistant", "Correct, so renew it soon.")],
         "passport.expiration", "2025-02-18"),
        ([("user", "Just to check, my email is ana@example.com?"), ("assistant", "That's correct.")],
         "contact.email", "ana@example.com"),
    ],
)
def test_a_check_question_the_assistant_confirms_is_a_statement(turns: list[tuple[str, str]], key: str,
                                                                 value: str) -> None:
    """People state facts as questions ("So my appointment is on the 12th?"); the assistant's "yes" settles it."""
    got = {c.key: c for c in run(*turns)}
    assert key in got, sorted(got)
    c = got[key]
    assert c.value == value and c.message_ids == ["m0", "m1"] and c.role == "user"


@pytest.mark.parametrize(
    "turns",
    [
        [("user", "So my optician appointment is on March 12th at 3pm?"), ("assistant", "No, it's on the 14th.")],
        [("user", "So my optician appointment is on March 12th at 3pm?"), ("assistant", "Let me check.")],
        [("user", "Is my appointment on March 12th?"), ("assistant", "Yes.")],  # a real question, not a statement
    ],
)
def test_a_check_question_needs_a_confirmation(turns: list[tuple[str, str]]) -> None:
    assert not any(c.key.startswith("appointment.") and c.value == "2024-03-12" for c in run(*turns))


@pytest.mark.parametrize(
    "text",
    [
        # "haven't" + a state or a span of time is not a pending task ("User needs to been around")
        "Sorry I haven't been online much.",
        "I probably own records I haven't played in years.",
        "Hey Tomas, I haven't written to you in ages.",
        "I haven't been able to swim much lately, but I miss it.",
        "I haven't felt this good in ages.",
        # "don't have" + something that is not food or drink is not a diet
        "I don't have strong opinions anyway, so it's fine.",
        "Luckily, I don't have to rush it.",
        # a past tense after "never" is not a habit ("User never knews turtles could be")
        "I never knew moths could be so pretty.",
        "I always thought it would rain.",
    ],
)
def test_states_and_spans_of_time_are_not_tasks_diets_or_habits(text: str) -> None:
    assert run(("user", text)) == [], [c.text for c in run(("user", text))]


@pytest.mark.parametrize(
    ("text", "key", "task"),
    [
        ("I haven't booked the hotel yet.", "task.book_hotel", "book the hotel"),
        ("I haven't paid the water bill.", "task.pay_water_bill", "pay the water bill"),
    ],
)
def test_an_unfinished_chore_is_still_a_task(text: str, key: str, task: str) -> None:
    c = one(text, key)
    assert c.kind == MemoryKind.OPEN_LOOP and c.metadata["task"] == task, c


@pytest.mark.parametrize(
    ("text", "key"),
    [("I can't have gluten, so no pastries for me.", "preference.diet.avoid.gluten"),
     ("I don't drink coffee anymore.", "preference.diet.avoid.coffee")],
)
def test_food_and_drink_avoidances_still_count(text: str, key: str) -> None:
    one(text, key)


def test_a_possessive_name_is_the_name() -> None:
    c = one("We baked a cake for my nephew Oskar's birthday.", "relation.nephew.oskar")
    assert c.value == "Oskar" and "Oskar's" not in c.text, c.text


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I'm now a site manager.", "profile.occupation", "site manager"),
        ("I'm currently a teacher.", "profile.occupation", "teacher"),
    ],
)
def test_an_adverb_before_the_job_is_not_part_of_it(text: str, key: str, value: str) -> None:
    c = one(text, key)
    assert c.value == value and "now a" not in c.text and "currently a" not in c.text


def test_a_drink_given_up_is_not_eaten() -> None:
    texts = [c.text for c in run(("user", "I don't drink cola anymore."))]
    assert any("no longer drinks cola" in t for t in texts), texts
    assert not any("eats cola" in t for t in texts)
