"""What kind of act a request asks for, beside what it asks about: the family of its leading verb, and whether it
asks for an explanation. tool_fit.py turns a tool down when the act is one the tool does not do.

A request's object is not all it says: "Cancel my appointment" is about an appointment, as `book_appointment` is,
but asks for the opposite act; "Change the Wi-Fi password" is about the password `get_wifi_password` returns, but
asks to change it. `act_family(question)` is the family of the request's leading verb (the first word after
"please", "can you", "I want to", ...), among a few families of general English verbs that act on things in
different ways: setting a state, taking something away, buying, selling, cleaning, repairing. A tool does an act of
a family when its name or description says one of that family's verbs (`does_act`).

`is_explanation(question)` tells "Why do cats purr?" and "How do solar panels turn sunlight into electricity?",
which ask how or why the world works, from a request for a value ("How is the weather in Oslo?", "How many
...?"). No data tool answers those; one that explains or guides does.

What it leaves out on purpose: a verb outside the families is not judged (most requests say "get", "find",
"book", "send", which the noun phrases of asked.py judge), and a synonym missing from its family ("axe the
meeting") is not taken for one. A verb is told from a noun only by its place at the start of the request.
"""

from __future__ import annotations

import re

from helpers.offline.asked import TOKEN
from helpers.offline.text import stem

# Families of verbs that act on a thing in one way; a request's act and a tool's act meet when both say a verb
# of the same family. General English, about no subject.
ACT_FAMILIES: dict[str, frozenset[str]] = {name: frozenset(stem(w) for w in verbs.split()) for name, verbs in {
    "set": "set change modify update edit adjust alter switch turn put configure dim brighten raise lower "
           "increase decrease enable disable activate deactivate toggle rename move reschedule",
    "remove": "cancel delete remove erase undo revoke withdraw unsubscribe uninstall drop clear discard",
    "buy": "buy purchase order",
    "sell": "sell",
    "clean": "clean wash",
    "repair": "repair fix mend",
}.items()}
# Verbs of a tool that changes the world rather than answers: what it does when called is one of these acts.
WRITE_VERBS = frozenset(set().union(*ACT_FAMILIES.values()) | {stem(w) for w in """create add send book schedule post
submit reserve register write insert upload publish save store record log invite share""".split()})
# The words themselves, not their stems: "readings" is a noun, "reads" a verb.
_READ_VERBS = frozenset("get gets retrieve retrieves fetch fetches return returns list lists search searches find finds "
                        "look looks read reads check checks show shows".split())
# Words that open a description of what a tool tells ("When a module starts", "What the weather is").
_WH_WORDS = frozenset("what which who whom whose when where how whether".split())
# A question that only asks ("What's on my calendar?"), not one that asks for an act ("Can you book ...?").
# "How to save the game at stage 7?" asks for the act itself, as "Save the game" does.
_ASKS = re.compile(r"^\W*(?:what|which|who|whom|whose|when|where|how(?!\s+to\b))\b", re.I)
_ASKS_TO_ACT = re.compile(r"\b(?:can|could|would|will)\s+(?:you|u)\b|\bplease\b|\bi(?:'d| would)\s+like\b|"
                          r"\bi\s+(?:want|need)\b|\blet'?s\b|\bshould\s+(?:i|we)\s+(?:book|send|add|create)", re.I)
# Words a request may start with before its verb: "please", "can you", "I'd like to", "help me".
_LEAD_IN = frozenset("""please kindly can could would will you i id we lets let us me just now also then ok okay
hey hi so and want need like to help go ahead try""".split())
# "Why do cats purr?", "How does a heat pump work?": the subject after "how do" is not the one asking
# ("How do I ..." asks how to do a thing, which a tool for that thing may do).
_WHY = re.compile(r"^\W*why\b", re.I)
_HOW_WORKS = re.compile(r"^\W*how\s+(?:do|does|did)\s+(?!(?:i|we|you|one)\b)", re.I)
# "What is the best way to boil an egg?", "How to wrap a vase?": advice on how to do a thing, not a value.
_ADVICE = re.compile(r"^\W*(?:what(?:'s|\s+is|\s+are)\s+(?:the\s+)?(?:best|right|correct|easiest|quickest|safest)\s+"
                     r"ways?\s+to|how\s+to)\b", re.I)
_LOOKS = re.compile(r"\b(?:look|looks|seem|seems|sound|sounds|compare)\b", re.I)  # "How does the week look?"
_VALUE = re.compile(r"\d|[\"\u201c]|(?<!^)(?<![.?!]\s)\b[A-Z][a-z]")  # a number, a quote or a name to look up


def leading_verb(question: str) -> str:
    """The first word of the request after its lead-in words, lower case ("" when none).

    Example:
        >>> leading_verb("Could you please cancel my booking?"), leading_verb("I'd like to sell my bike")
        ('cancel', 'sell')
    """
    for token in TOKEN.findall(question.replace("\u2019", "'")):
        word = token.lower().replace("'", "")
        if not word.isalpha():
            continue
        if word not in _LEAD_IN:
            return word
    return ""


def act_family(question: str) -> str | None:
    """The family of the request's leading verb, or None when it is no verb of the families.

    Example:
        >>> act_family("Please delete the old photos"), act_family("Find the old photos")
        ('remove', None)
    """
    verb = stem(leading_verb(question))
    return next((name for name, verbs in ACT_FAMILIES.items() if verb in verbs), None)


def does_act(family: str, tool_text: str) -> bool:
    """Whether a tool's name and description say a verb of the family.

    Example:
        >>> does_act("remove", "cancel_booking: Cancels a booking"), does_act("remove", "Books a room")
        (True, False)
        >>> does_act("remove", "Allows deletion or addition of columns")
        True
    """
    said = {stem(t.lower()) for t in TOKEN.findall(tool_text.replace("_", " "))}
    # A noun of the act counts as its verb: "allows deletion of columns" deletes ("deletion" starts with "delet").
    return any(w.startswith(verb) for verb in ACT_FAMILIES[family] for w in said if len(verb) >= 3)


def is_explanation(question: str) -> bool:
    """Whether the request asks why or how the world works, with no value to look up (see the module).

    Example:
        >>> is_explanation("Why do cats purr?"), is_explanation("How does a heat pump work?")
        (True, True)
        >>> is_explanation("How do I book a room?"), is_explanation("Why is parcel QX-12 late?")
        (False, False)
        >>> is_explanation("What is the best way to store honey?")
        True
    """
    text = question.strip()
    if not (_WHY.match(text) or _HOW_WORKS.match(text) or _ADVICE.match(text)) or _LOOKS.search(text):
        return False
    return not _VALUE.search(text[1:])


def only_asks(question: str) -> bool:
    """Whether the request is a question for information and asks for no act: "What's on my calendar tomorrow?",
    not "Can you book a table?" nor "Book a table".

    Example:
        >>> only_asks("What's on my calendar tomorrow?"), only_asks("When can you book me in?")
        (True, False)
    """
    return bool(_ASKS.match(question)) and not _ASKS_TO_ACT.search(question)


def tool_writes(name: str, description: str) -> bool:
    """Whether the tool's own act, the first word of its name or of its description, changes the world
    ("create_event", "Sends an email ..."): such a tool does something, it does not tell what is.

    Example:
        >>> tool_writes("create_calendar_event", "Creates an event."), tool_writes("get_events", "Lists events.")
        (True, False)
        >>> tool_writes("http_get", "Sends a GET request to retrieve a page.")
        False
        >>> tool_writes("schedule_dates", "When a module starts."), tool_writes("book_picks", "Recommends books.")
        (False, False)
    """
    said_first = next((w for w in TOKEN.findall(description)[:1] if w.isalpha()), "")
    if said_first and stem(said_first.lower()) not in WRITE_VERBS and (
            said_first.lower() in _WH_WORDS or re.fullmatch(r"[A-Z][a-z]+[^s]s", said_first)):
        # The description's own first word says what the tool does, and it is no writing act: "Recommends
        # books ..." for `book_recommendations`, "When a module starts ..." for `schedule_dates` (the name's
        # first word is then a noun, not the tool's act).
        return False
    named_first = [w for w in name.replace(".", "_").split("_")[:1] if w.isalpha()]
    if not any(stem(w.lower()) in WRITE_VERBS for w in [*named_first, said_first] if w):
        return False
    # "requests_get: Sends a GET request to retrieve ..." sends in order to read: a read verb in its name or first
    # sentence says it tells.
    first_sentence = re.split(r"(?<=[.!?])\s", description, maxsplit=1)[0]
    said = {t.lower() for t in TOKEN.findall(f"{name.replace('_', ' ').replace('.', ' ')} {first_sentence}")}
    return not said & _READ_VERBS


# A sentence that starts with its subject tells something: "I'm staying at a hotel in Lisbon", "The heater is loud".
_TELLS = re.compile(r"^\W*(?:i|i'm|im|i've|we|we're|we've|my|our|the|it|it's|its|this|that|there|he|she|they|his|"
                    r"her|their|yesterday|today|last)\b", re.I)
_QUESTION = re.compile(r"\?\s*$|^\W*(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|can|could|do|does|"
                       r"did|should|will|would|may)\b", re.I)


# A part that says what its speaker wants asks, whatever its form: "I need to convert 5000 euros".
_WANTS = re.compile(r"\b(?:need|needs|want|wants|wanted|like|looking|interested|have\s+to|has\s+to|planning|trying|"
                    r"wish|hope|must|tell|show|give|find|get|help|know|curious|wondering)\b", re.I)
_POINTS_BACK = re.compile(r"\b(?:it|its|they|them|their|this|that|these|those|both|each|either|all|one|ones|"
                          r"he|she|him|her|his|there)\b", re.I)
_HELP = re.compile(r"\bhelp\b|\b(?:a|some|few|two|three|following)\s+(?:tasks?|things|questions?|requests?)\b", re.I)


def asked_parts(parts: list[str]) -> list[str]:
    """The parts of a request that ask: when one part is a question, the parts that only tell something are
    context ("I'm staying at a hotel in Lisbon. What's the best restaurant nearby?" asks about a restaurant).

    Example:
        >>> asked_parts(["I'm in Oban", "When is the next ferry?"])
        ['When is the next ferry?']
        >>> asked_parts(["The heater is loud", "What could it be?"])
        ['The heater is loud', 'What could it be?']
        >>> asked_parts(["The heater is loud", "turn it off"])
        ['The heater is loud', 'turn it off']
        >>> asked_parts(["Can you help me with two tasks?", "I need the heater's mode"])
        ['Can you help me with two tasks?', "I need the heater's mode"]
    """
    asking = [part for part in parts if _QUESTION.search(part) and not _HELP.search(part)]
    if not asking or any(_POINTS_BACK.search(part) for part in asking):
        # "Can you help me with two tasks?" asks nothing yet: the tasks are in the parts that follow. "How much
        # will John have for both options?" asks about what the parts before it told.
        return parts
    return [part for part in parts if _QUESTION.search(part) or not _TELLS.match(part) or _WANTS.search(part)]
