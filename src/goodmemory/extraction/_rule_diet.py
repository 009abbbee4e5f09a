"""The diet rules: the one diet a user has ("I'm pescatarian", "I follow a low-FODMAP diet"), meat on or off the menu,
and the diets that limit one thing for health, kept beside it ("a low-sugar diet", "gluten-free")."""

from __future__ import annotations

import re

from ..taxonomy import slug
from . import _patterns as P
from ._engine import Clause

__all__ = ["diet", "diet_meat", "emit_allergy"]

Match = re.Match[str]

_DIETS = (r"vegetarian|vegan|pescatarian|pescetarian|keto|paleo|kosher|halal|gluten[- ]free|dairy[- ]free|lactose[- ]free|"
          r"plant[- ]based")
R_DIET = re.compile(
    r"(?:\b(?:i'?m|i am|i eat|i (?:strictly |mostly |now )?(?:follow|stick to|keep to|eat) an?|i keep|i went|i'?ve gone|i'?ve been|i have been|"
    r"i have gone|i'?m now|i am now)\s+|"
    # chat leaves the "I'm" out when it says the diet is new: "pescatarian now", "new era: vegan since March"
    r"(?:^|(?<=[:;,])\s*)(?=(?:fully |strictly |mostly )?(?:" + _DIETS + r")\s+(?:now|these days|nowadays|from now on|"
    r"since|again|for (?:a|\w+) (?:weeks?|months?|years?))\b))(?:an? |strictly |mostly |fully |completely )?"
    r"(?P<v>" + _DIETS + r")\b",
    re.I,
)
# a diet named by what it is, beyond the known ones: "I strictly follow a low-FODMAP diet", "I'm on a Mediterranean diet"
_FOLLOWS_DIET = re.compile(r"\bi(?:'m| am)? (?:strictly |mostly |now |still )?(?:follow|stick to|keep to|on) an? "
                           r"(?!(?:strict|new|special|proper|different|little|real|serious|bit|very|quite|sort|kind)\b)"
                           r"(?P<v>(?:[\w\-]+ )?[\w\-]+) diet\b", re.I)
_DIET_NOT = re.compile(r"\b(?:i'?m|i am) (?:not|no longer) (?:a |an )?(?P<v>vegetarian|vegan|pescatarian|keto|gluten-free)\b", re.I)
# foods joined by "and"/commas ("fish and chicken"), not a way of eating ("I eat out a lot")
_EATS_NOW = re.compile(r"^\W*(?:and |but |so )?(?:now |these days )?(?:i|we) (?:now |do )?eat "
                       r"(?!(?:out|in|late|early|less|more|well|healthy|alone|a lot)\b)"
                       r"(?P<f>[a-z\-]{3,}(?:(?:,? and |, |,? & )[a-z\-]{3,}){0,4})(?:\s+(?:again|now|these days|too))*\W*$",
                       re.I)

def _retire_food_likes(c: Clause, *, fish: bool) -> None:
    """A new meatless diet outdates earlier likes of meat (and, for vegetarians, fish) dishes: emit a
    superseding value for each such active ``preference.like.*`` slot that names neither the dish nor "likes"."""
    words = P.MEAT_WORDS | (P.FISH_WORDS if fish else frozenset())
    for key, val in c.run.ctx.existing.items():
        if not key.startswith("preference.like.") or not val.lower().startswith("likes "):
            continue
        if words.isdisjoint(re.findall(r"[a-z]+", val.lower())):
            continue
        what = "meat or fish" if fish else "meat"
        c.emit(key, f"no longer eats {what}", f"User no longer eats {what}, so an earlier taste for it no longer applies.",
               importance=0.5, correction=True, keywords=f"diet food {what} no longer")


def diet_meat(c: Clause, m: Match | None) -> bool:
    """Meat on or off the menu lands on the one diet slot, ``preference.diet.type``: "I don't eat meat
    (anymore)" / "I stopped eating meat" -> ``no meat``; "I eat meat again" -> ``eats meat``; so each
    supersedes the other (and "vegetarian"). Turning away from meat also retires meat likes."""
    s, fl = c.s, c.fl
    m = P.diet_avoid(s)
    if (m is not None and m.group("v").strip().lower() in ("meat", "any meat")) or P.R_MEAT_OFF.search(s):
        change = fl.negated_change or bool(P.R_MEAT_OFF.search(s))
        text = "User no longer eats meat (no meat)." if change else "User doesn't eat meat (no meat)."
        c.emit("preference.diet.type", "no meat", text, correction=change,
               keywords="diet food meat vegetarian avoid eats")
        _retire_food_likes(c, fish=False)
        return True
    if P.R_MEAT_AGAIN.search(s):
        c.emit("preference.diet.type", "eats meat", "User eats meat again (eats meat).", importance=0.8,
               correction=True, keywords="diet food meat eats again")
        return True
    return False


def diet(c: Clause, m: Match | None) -> None:
    m = _DIET_NOT.search(c.s)
    if m and c.fl.negated_change:
        v = f"no longer {m.group('v').lower()}"
        now = _EATS_NOW.search(c.run.sentence[c.run.sentence.lower().find(c.s.lower()) + len(c.s):])
        if now:  # "I'm not vegan anymore, I eat eggs and cheese now": what they eat now is the diet
            food = now.group("f").strip(" ,")
            c.emit("preference.diet.type", f"eats {food}", f"User is {v} and eats {food} now.", importance=0.8,
                   correction=True, keywords=f"diet food eats {m.group('v').lower()}")
            c.run.used.add(now.group(0).strip(" ,.!").lower())  # read here: no statement of its own
            return
        c.emit("preference.diet.type", v, f"User is {v}.", importance=0.8, correction=True, keywords="diet food eats")
    elif (m := R_DIET.search(c.s)) and not re.search(r"\bnot\b", c.s, re.I):
        v = m.group("v").lower().replace(" ", "-")
        _emit_diet(c, v)
        if v in ("vegetarian", "vegan", "pescatarian", "pescetarian", "plant-based"):
            _retire_food_likes(c, fish=v != "pescatarian" and v != "pescetarian")
    elif (m := _FOLLOWS_DIET.search(c.s)) and not re.search(r"\bnot\b|n't\b", c.s, re.I):
        _emit_diet(c, m.group("v").lower().replace(" ", "-"))


# a diet that limits one nutrient or ingredient for health ("low-sugar", "gluten-free", "no-salt") is kept beside the
# diet the user has: a pescatarian on a low-sugar diet is both (as the one diet slot, the second had replaced the
# first). A regime named by what it limits ("low-carb", "low-FODMAP") is the diet itself
_LIMITS = re.compile(r"^(?:low|reduced|no|zero)-(?P<a>sugar|salt|sodium|fat|cholesterol|potassium|protein|purine)$|"
                     r"^(?P<b>[a-z]+)-(?:free|restricted)$")


def _emit_diet(c: Clause, v: str) -> None:
    limit = _LIMITS.match(v)
    if limit:
        thing = limit.group("a") or limit.group("b")
        c.emit(f"preference.diet.avoid.{slug(thing)}", v, f"User follows a {v} diet.",
               keywords=f"diet food eats meals {thing}")
    else:
        c.emit("preference.diet.type", v, keywords="diet food eats meals")


def emit_allergy(c: Clause, thing: str, kind: str = "allergy") -> None:
    """An allergy (``kind`` "allergy"), an intolerance ("intolerance") or coeliac disease ("coeliac", ``thing`` the
    word said for it), one way for every rule that reads one ("I'm allergic to X", "X gives me hives", "I'm coeliac")."""
    if kind == "intolerance":
        c.emit(f"preference.diet.intolerance.{slug(thing)}", thing, f"User is {thing} intolerant.", importance=0.9,
               keywords=f"diet intolerance allergy food {thing}")
    elif kind == "coeliac":
        c.emit("preference.diet.allergy.gluten", thing, f"User has {thing} disease and must avoid gluten.",
               keywords="diet allergy gluten celiac coeliac food")
    else:
        c.emit(f"preference.diet.allergy.{slug(thing)}", thing, f"User is allergic to {thing}.",
               keywords=f"allergy allergic diet food health {thing}")
