"""Well-known providers, by the sort of thing a user has one of at a time (pure data and one lookup).

"Barclays charged me £12 ..." and "Moved my current account to Starling ..." are two statements of
one attribute that share nothing once their names are masked: only the names say both are banks.
These lists are general knowledge of the largest providers in the UK, the US, Ireland, Australia,
Canada, India, Germany and Brazil, written from that knowledge and not from any evaluation set.

A name that is also an everyday word or a common name ("Three", "Octopus", "Chase", "Blink",
"Notion") counts only as written with its capital; the others count in any case ("monzo", "giffgaff").
A name can be of two sorts (Vodafone sells broadband and mobile plans).
"""

from __future__ import annotations

import functools
import re

__all__ = ["HELD_ONCE", "brand_sorts", "brands_in", "held_once"]

# sort -> names; a name in ``_WORDS`` must be capitalised as written here
_BRANDS: dict[str, tuple[str, ...]] = {
    "bank": (
        "Barclays", "HSBC", "Lloyds", "NatWest", "Santander", "Nationwide", "Monzo", "Starling", "Revolut", "TSB",
        "Metro Bank", "Co-op Bank", "First Direct", "Virgin Money", "RBS", "Royal Bank of Scotland",
        "Bank of Scotland", "Chase", "Wells Fargo", "Bank of America", "BofA", "Citibank", "Citi", "Capital One",
        "US Bank", "U.S. Bank", "PNC", "Truist", "TD Bank", "Ally", "Navy Federal", "Charles Schwab", "Chime", "SoFi",
        "Bank of Ireland", "AIB", "Permanent TSB", "Commonwealth Bank", "CommBank", "Westpac", "ANZ", "NAB", "ING",
        "Bendigo Bank", "RBC", "Scotiabank", "BMO", "CIBC", "Tangerine", "Desjardins", "SBI", "State Bank of India",
        "HDFC Bank", "HDFC", "ICICI", "Axis Bank", "Kotak", "Deutsche Bank", "Commerzbank", "Sparkasse", "N26", "DKB",
        "Postbank", "Volksbank", "Nubank", "Itaú", "Itau", "Bradesco", "Banco do Brasil", "Caixa", "bunq", "Rabobank",
        "ABN AMRO", "BNP Paribas", "Nordea", "Danske Bank", "GTBank", "GTCO", "Access Bank", "Zenith Bank",
        "First Bank", "UBA", "Opay", "OPay", "Moniepoint", "Kuda", "PalmPay", "Wema Bank", "FNB", "Standard Bank",
        "Absa", "Capitec", "Nedbank", "TymeBank", "Discovery Bank", "BBVA", "Banorte", "Banamex", "Citibanamex",
        "BDO", "BPI", "Metrobank", "GCash", "UnionBank", "Landbank", "Security Bank", "MUFG", "SMBC", "Mizuho",
        "Rakuten Bank", "Japan Post Bank", "Resona", "M-Pesa", "Equity Bank", "KCB",
    ),
    "gym": (
        "PureGym", "Pure Gym", "Planet Fitness", "Anytime Fitness", "LA Fitness", "Gold's Gym", "Equinox",
        "24 Hour Fitness", "Crunch", "Blink", "Orangetheory", "F45", "David Lloyd", "Virgin Active", "The Gym Group",
        "Nuffield Health", "Snap Fitness", "Jetts", "GoodLife", "Fitness First", "McFit", "Bannatyne", "Third Space",
        "Gymbox", "SoulCycle", "YMCA", "Life Time", "EoS Fitness", "Xsport", "Smart Fit", "Cult.fit",
        "Everyone Active", "Better Gym", "Joyfit", "Curves", "Konami Sports", "Tipness",
    ),
    "energy": (
        "Octopus", "E.ON", "EON", "E.ON Next", "British Gas", "EDF", "OVO", "Scottish Power", "ScottishPower", "SSE",
        "Bulb", "Shell Energy", "Utility Warehouse", "So Energy", "Outfox the Market", "Con Edison", "ConEd", "PG&E",
        "Duke Energy", "Xcel", "Dominion Energy", "National Grid", "Eversource", "ComEd", "Georgia Power", "FPL",
        "SDG&E", "Southern California Edison", "Electric Ireland", "Bord Gáis", "Energia", "AGL", "Origin Energy",
        "EnergyAustralia", "Red Energy", "Alinta", "Vattenfall", "EnBW", "Tata Power", "Adani Electricity", "BSES",
        "Hydro One", "Enmax", "Eskom", "TEPCO", "Kansai Electric", "Tokyo Gas", "CFE", "Meralco", "EKEDC",
        "Ikeja Electric", "IKEDC",
    ),
    "broadband": (
        "BT", "Virgin Media", "Sky", "TalkTalk", "Plusnet", "Hyperoptic", "Community Fibre", "Vodafone", "Comcast",
        "Xfinity", "Spectrum", "Verizon Fios", "Fios", "AT&T Fiber", "Google Fiber", "Starlink", "Eir", "Telstra",
        "Optus", "TPG", "Aussie Broadband", "Telekom", "Deutsche Telekom", "1&1", "Jio Fiber", "JioFiber",
        "Airtel Xstream", "ACT Fibernet",
    ),
    "phone_plan": (
        "EE", "O2", "Vodafone", "Three", "giffgaff", "Tesco Mobile", "Sky Mobile", "Lebara", "Lyca", "Lycamobile",
        "Voxi", "Smarty", "iD Mobile", "Verizon", "AT&T", "T-Mobile", "Mint Mobile", "Metro by T-Mobile",
        "Boost Mobile", "Google Fi", "US Mobile", "Telstra", "Optus", "Amaysim", "Jio", "Airtel", "BSNL", "Telekom",
        "Claro", "TIM", "Koodo", "Freedom Mobile", "Eir", "MTN", "Glo", "9mobile", "Vodacom", "Cell C", "Telkom",
        "Globe", "Smart", "DITO", "TNT", "Telcel", "Movistar", "Bait", "Unefon", "Docomo", "NTT Docomo", "SoftBank",
        "Rakuten Mobile", "ahamo", "povo", "LINEMO", "UQ Mobile", "Y!mobile", "Safaricom",
    ),
    "insurer": (
        "Anthem", "Kaiser", "Kaiser Permanente", "Aetna", "Cigna", "UnitedHealthcare", "United Healthcare", "Humana",
        "Blue Cross", "Blue Shield", "BCBS", "Ambetter", "Molina", "Bupa", "AXA", "Aviva", "Vitality", "Direct Line",
        "Admiral", "Churchill", "Geico", "GEICO", "Progressive", "State Farm", "Allstate", "Liberty Mutual",
        "Medibank", "HCF", "NIB", "Allianz", "Techniker", "TK", "AOK", "Barmer", "Star Health", "Laya",
        "Irish Life Health", "VHI", "Vhi", "Discovery Health", "Momentum", "Bonitas", "PhilHealth", "Maxicare",
        "AXA Mansard", "Hygeia", "IMSS", "GNP", "Seguros Monterrey",
    ),
    "pension": (
        "NEST", "Scottish Widows", "Legal & General", "Royal London", "Standard Life", "PensionBee", "Aegon",
        "Hargreaves Lansdown", "AJ Bell", "Vanguard", "Fidelity", "Nutmeg", "Moneybox", "Wealthsimple",
        "AustralianSuper", "Hostplus", "Aware Super", "TIAA",
    ),
    # apps one keeps one kind of thing in: a change of notes app is "Notion" -> "Obsidian", never "Notion" -> "Spotify"
    "notes_app": (
        "Notion", "Obsidian", "Evernote", "OneNote", "Roam", "Logseq", "Apple Notes", "Google Keep", "Joplin",
        "Simplenote", "Standard Notes", "Zotero", "Mendeley", "Scrivener",
    ),
    "task_app": (
        "Todoist", "Trello", "Asana", "Jira", "Linear", "ClickUp", "Monday.com", "TickTick", "Microsoft To Do",
        "Basecamp", "Wrike", "Any.do", "OmniFocus",
    ),
    "code_editor": (
        "VS Code", "VSCode", "Visual Studio Code", "Vim", "Neovim", "Emacs", "PyCharm", "IntelliJ", "Sublime",
        "Sublime Text", "Cursor", "WebStorm", "Xcode", "Android Studio", "Atom",
    ),
    "music_app": (
        "Spotify", "Apple Music", "YouTube Music", "Tidal", "Deezer", "Amazon Music", "Pandora", "SoundCloud",
    ),
    "email_app": (
        "Gmail", "Outlook", "Proton Mail", "ProtonMail", "Fastmail", "Thunderbird", "Superhuman", "Yahoo Mail",
        "iCloud Mail",
    ),
    "password_app": (
        "1Password", "LastPass", "Bitwarden", "Dashlane", "KeePass", "Keeper", "NordPass",
    ),
    "browser": (
        "Chrome", "Firefox", "Brave", "Vivaldi",
    ),
    "language_app": (
        "Duolingo", "Babbel", "Memrise", "Busuu", "Rosetta Stone", "Pimsleur", "Anki", "italki",
    ),
    "accounting_app": (
        "Xero", "QuickBooks", "FreeAgent", "FreshBooks", "Zoho Books",
    ),
    "cloud_app": (
        "Dropbox", "Google Drive", "iCloud", "OneDrive", "pCloud", "Mega",
    ),
}

# everyday words and common first names among the names: only their capitalised form names the provider
_WORDS = frozenset(["EON", "NAB", "BT", "EE", "NIB", "NEST", "Third Space", "Everyone Active", "Smart Fit",
                    "National Grid", "So Energy", "Direct Line", "Star Health", "Laya", "Standard Notes", "Asana",
                    "Basecamp", "Sublime", "Outlook", "Superhuman", "Brave", "Vivaldi", "Rosetta Stone", "US Mobile",
                    "Standard Life", "First Direct", "US Bank", "Nutmeg", "Moneybox", "Chrome", "Sublime Text",
                    "Nationwide", "Starling", "Chase", "Ally", "Chime", "Tangerine", "Caixa", "Crunch", "Blink",
                    "Equinox", "Octopus", "Bulb", "Sky", "Spectrum", "Three", "Claro", "Anthem", "Progressive",
                    "Vitality", "Admiral", "Churchill", "Fidelity", "Vanguard", "Notion", "Obsidian", "Roam",
                    "Linear", "Cursor", "Keeper", "Tidal", "Pandora", "Eir", "Energia", "Origin Energy", "Life Time",
                    "Vim", "Xcel", "Wrike", "Kaiser", "TIM", "TK", "Jio", "Airtel", "Telekom", "Aware Super", "Lyca",
                    "Voxi", "Smarty", "Outfox the Market", "Red Energy", "Alinta", "Legal & General", "Amaysim",
                    "Koodo", "Joplin", "Anki", "Memrise", "Busuu", "Molina", "Humana", "Cigna", "Aetna", "Glo",
                    "Globe", "Smart", "Bait", "Curves", "Momentum", "Kuda", "Equity Bank", "First Bank",
                    "Standard Bank", "Security Bank"])
# of the names above, those no everyday word shares a spelling with, read in any case ("jio", "airtel")
_ANY_CASE_TOO = frozenset(["Jio", "Airtel", "Telekom", "Lyca", "Voxi", "Xcel", "Wrike", "Kaiser", "Amaysim", "Koodo",
                           "Joplin", "Memrise", "Busuu", "Humana", "Cigna", "Aetna", "Molina"])


@functools.cache
def _patterns() -> tuple[tuple[re.Pattern[str], dict[str, frozenset[str]], bool], ...]:
    """One pattern for the names that count only capitalised, one for the others (longest first), each with the
    sorts of the names it finds (looked up as written, or lower-cased)."""
    sorts: dict[str, set[str]] = {}
    for sort, names in _BRANDS.items():
        for name in names:
            sorts.setdefault(name, set()).add(sort)
    cased = [n for n in sorts if n in _WORDS and n not in _ANY_CASE_TOO]
    free = [n for n in sorts if n not in cased]
    out = []
    for group, cased_only in ((cased, True), (free, False)):
        alts = "|".join(re.escape(n) for n in sorted(group, key=len, reverse=True))
        pat = re.compile(r"(?<![\w&.])(?:" + alts + r")(?![\w&]|-\w)", 0 if cased_only else re.I)
        lookup: dict[str, frozenset[str]] = {}
        for n in group:
            k = n if cased_only else n.lower()
            lookup[k] = lookup.get(k, frozenset()) | frozenset(sorts[n])
        out.append((pat, lookup, cased_only))
    return tuple(out)


_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+|\n)\W*$")
# what only a provider does to its customer: a name that starts a sentence and bills, charges or texts the user is the
# provider's ("Sky charged me twice", "Octopus sent us a huge bill"), not the word ("Three of us", "Sky blue")
_BILLS_THE_USER = re.compile(r"\s+(?:(?:just|has|have|keeps?|finally|still)\s+)?(?:sent|charged|billed|emailed|texted|"
                             r"rang|called|messaged|overcharged|double[- ]charged|refunded|cut|raised|put up|hiked|"
                             r"increased|upped|cancelled|disconnected|switched off)\s+(?:me|us|my|our)\b|"
                             # what a provider sends a new customer: "Octopus sent the welcome pack today"
                             r"\s+(?:just\s+|has\s+)?(?:sent|posted|emailed)\s+(?:the|a|an)\s+(?:\w+\s+)?"
                             r"(?:welcome|pack|letter|bill|sim|router|card|contract|statement)\b", re.I)


def brands_in(text: str) -> frozenset[tuple[str, str]]:
    """The well-known providers ``text`` names, each as (its name lower-cased, one of its sorts); a name that is also
    a word counts only capitalised inside a sentence ("Three" at a sentence's start is a number)."""
    found: set[tuple[str, str]] = set()
    for pat, lookup, cased_only in _patterns():
        for m in pat.finditer(text):
            name = m.group(0)
            # a word capitalised because it starts a sentence ("Three of us ...") names nothing; "NEST" still does
            if cased_only and name.istitle() and _SENTENCE_START.search(text[:m.start()]) \
                    and not _BILLS_THE_USER.match(text, m.end()):
                continue
            found |= {(name.lower(), sort) for sort in lookup.get(name if cased_only else name.lower(), frozenset())}
    return frozenset(found)


# the sorts of provider a household holds one of at a time (a bank, an insurer or a pension may be one of several)
HELD_ONCE = frozenset(["gym", "energy", "broadband", "phone_plan"])


def held_once(text: str) -> frozenset[tuple[str, str]]:
    """The providers ``text`` names of a sort held one at a time, as :func:`brands_in` gives them."""
    return frozenset((n, s) for n, s in brands_in(text) if s in HELD_ONCE)


def brand_sorts(text: str) -> frozenset[str]:
    """The sorts of the well-known providers ``text`` names ("Barclays" -> bank, "giffgaff" -> phone_plan)."""
    return frozenset(sort for _, sort in brands_in(text))
