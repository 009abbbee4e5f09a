"""family_of finds a key's family by the key's dot boundaries: the same answer as trying every prefix."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from goodmemory._key_families import _BY_PREFIX, _WITH_SUFFIX, KEY_FAMILIES, KeyFamily, family_of


def by_every_prefix(key: str) -> KeyFamily | None:
    """The definition: a suffix family first, else the longest prefix on dot boundaries."""
    base = key.split("~", 1)[0]
    for fam in _WITH_SUFFIX:
        if any(base.endswith("." + sfx) for sfx in fam.suffixes):
            return fam
    for prefix, fam in _BY_PREFIX:
        if base == prefix or base.startswith(prefix + "."):
            return fam
    return None


_PIECES = sorted({part for fam in KEY_FAMILIES for p in (*fam.prefixes, *fam.suffixes) for part in p.split(".")}
                 | {"x", "honda_civic", "", "plate2", "home"})


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6), st.sampled_from(["", "~abc", "~"]))
def test_family_of_agrees_with_trying_every_prefix(parts: list[str], tail: str) -> None:
    key = ".".join(parts) + tail
    assert family_of(key) is by_every_prefix(key)


def test_family_of_on_every_declared_prefix_and_suffix() -> None:
    for fam in KEY_FAMILIES:
        for p in fam.prefixes:
            for key in (p, p + ".a", p + ".a.b~x", "z." + p):
                assert family_of(key) is by_every_prefix(key), key
        for sfx in fam.suffixes:
            for key in ("a." + sfx, "vehicle.a." + sfx, sfx):
                assert family_of(key) is by_every_prefix(key), key
