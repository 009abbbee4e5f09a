"""Two identifiers said in one sentence are two attributes: the second is no new value of the first.

"My policy number is X and the claim number is Y" had stored the claim number as a second policy number. The
sentences are this test's own; none is from a persona or a corpus.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _shared import current, module_mem, say  # noqa: F401 (the module's mem: one memory shared by its tests)

from goodmemory import GoodMemory

T1 = datetime(2025, 3, 1, 9, tzinfo=UTC)
T2 = datetime(2025, 3, 8, 9, tzinfo=UTC)
NOW = datetime(2025, 4, 1, 9, tzinfo=UTC)  # the shared mem's clock (_shared.module_mem)


def _current(mem: GoodMemory, user: str) -> list[tuple[str, str]]:
    return [(r.key, r.value) for r in current(mem, user)]


def test_a_claim_number_beside_a_policy_number_has_its_own_slot(mem: GoodMemory) -> None:
    say(mem, "ids", T1, "My policy number is HV-30417.")
    say(mem, "ids", T2, "My policy number is HV-30418 and the claim number is QC-7720.")
    current = _current(mem, "ids")
    policy = [v for k, v in current if k.startswith("policy.")]
    claim = [v for k, v in current if k.startswith("claim.")]
    assert policy == ["HV-30418"] and claim == ["QC-7720"], current


def test_a_new_policy_number_still_replaces_the_old_one(mem: GoodMemory) -> None:
    say(mem, "ids-new", T1, "My policy number is HV-30417.")
    say(mem, "ids-new", T2, "My policy number is HV-51002 and my member number is MB-118.")
    policy = [v for k, v in _current(mem, "ids-new") if k.startswith("policy.")]
    assert policy == ["HV-51002"], _current(mem, "ids-new")


@pytest.mark.parametrize(("old", "new", "value"), [
    ("My policy number is HV-30417.", "My policy number is now HV-51002.", "HV-51002"),
    ("My email is lena@oldmail.org.", "My email is currently lena@newmail.org.", "lena@newmail.org"),
    ("My address is 12 Birch Lane.", "My address is now 4 Quarry Road.", "4 Quarry Road"),
])
def test_a_value_said_with_now_is_the_value_not_the_sentence(mem: GoodMemory, old: str, new: str,
                                                             value: str) -> None:
    user = "now-" + value.replace(" ", "")
    say(mem, user, T1, old)
    say(mem, user, T2, new)
    assert [v for _k, v in _current(mem, user)] == [value], _current(mem, user)
