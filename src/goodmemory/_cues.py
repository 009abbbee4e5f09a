"""What a statement's words say of where it belongs (pure data, read by ``_attributes``).

A sum of money is a sum's, a well-known provider's name says its family, someone named who says something of the
user speaks of the user, and a change that names what went ("cancelled Netflix") names it by its object.
"""

from __future__ import annotations

import re

from .extraction._patterns import MONEY

__all__ = ["BRAND_FAMILIES", "MONEY_FAMILIES", "SAID_OF_ME", "SUM", "SUM_FAMILIES", "WENT"]

# a sum is also said as thousands ("on 62k", not "a 10k run") or per period without a currency ("550/month")
SUM = re.compile(MONEY + r"|\b\d{2,3}(?:\.\d)?k\b(?!\s*(?:run|race|steps|miles|km|followers|subscribers|views|words|"
                 r"feet|ft|mileage|on the clock))|\b\d[\d,]*(?:\.\d+)?\s?(?:/|a |per )\s?(?:month|week|year|mo|wk|yr)\b")
# what a change says went, by name: "cancelled Netflix", "moved the team from Trello to Asana", "ditched Evernote"
WENT = re.compile(r"\b(?:cancell?ed|quit|left|ditched|dropped|dumped|sold|gave up|got rid of|stopped using|"
                   r"switched (?:\w+ ){0,3}?from|moved (?:\w+ ){0,3}?from|migrated (?:\w+ ){0,3}?from|changed (?:\w+ ){0,3}?from)"
                   r"\s+(?:my |our |the |a |an )?(?P<o>(?-i:[A-Z])[\w&+'\-]*(?: (?-i:[A-Z0-9])[\w&+'\-]*){0,2})", re.I)
# someone named (a doctor, an employer, a provider) saying something of the user: "Dr. Osei at Harbour Dental says I
# grind my teeth", "Brightwave's new policy says I have to be in three days"
SAID_OF_ME = re.compile(r"^(?:the\s+)?(?-i:[A-Z])[\w.'\-]*(?:\s+[\w.'\-]+){0,5}?\s+(?:says|said|told me|tells me|wants me|"
                         r"thinks|reckons)\s+(?:that\s+)?(?:i|i'm|i've|my|me)\b", re.I)
# the families whose values are sums of money
MONEY_FAMILIES = frozenset(["finance", "budget", "rent", "insurance", "subscription", "provider", "booking"])
SUM_FAMILIES = ("finance", "budget", "rent")  # of those, the ones whose values are nothing but a sum
# the family a well-known provider's sort says (``_brands``)
BRAND_FAMILIES = {"energy": "provider", "broadband": "provider", "phone_plan": "provider", "gym": "fitness",
                   "bank": "bank", "insurer": "insurance", "pension": "finance"}
