"""Small text tools the offline model's rules are made of: words, stop words, stems, typos.

What it does:
- splits text into lowercase words and drops stop words ("how", "do", "I", "the" ...);
- reduces words to a crude stem ("installing" -> "install") so that word forms match each other;
- measures how far apart two words are (Damerau-Levenshtein distance), for typo repair;
- suggests close words for a search query (a few word forms and a small table of general synonyms).

What it leaves out on purpose: real linguistics. No dictionary, no part-of-speech tagger; stop words,
stems and synonyms for English only (Chinese and Japanese text is cut into pieces by cjk.py). Every rule is a few lines you can read, which is the point: the offline
model must be explainable, not clever.
"""

from __future__ import annotations

import functools
import re

from helpers.offline.cjk import CJK_RUN, cjk_words


def word_list(text: str) -> list[str]:
    """The words of a multi-line string: long word lists read better as text than as quoted items.

    Example:
        >>> word_list("a an the")
        ['a', 'an', 'the']
    """
    return text.split()


# Function words and question filler. They carry no topic, so a search query never needs them.
STOP_WORDS = frozenset(word_list("""
a an the and or but if then else nor so than as of to in on at by for with about from into onto over
under up down out off again further once here there when where why how what which who whom whose
this that these those am is are was were be been being have has had having do does did doing done
i me my mine myself we us our ours ourselves you your yours yourself he him his she her hers it its
itself they them their theirs themselves can could would should will shall may might must
just also too very really actually still even ever already yet only own same some any each every
all both few more most other another much many lot lots please thanks thank hi hello hey ok okay
yes yeah no not get got gets getting know knows want wants wanna need needs like tell explain
anyone someone something anything thing things way ways possible able let lets im ive id youre
whats thats theres heres hows whos dont doesnt didnt cant cannot couldnt wont wouldnt shouldnt
isnt arent wasnt werent havent hasnt hadnt ill youll its s t d ll re ve m go going via per e g
i.e eg etc there's
"""))

# A small table of everyday synonyms (and a few word forms), used to widen a search query. Only words a
# thesaurus would list as meaning the same: no bridge from a question's wording to one set of documents'
# wording ("late" is not "after"), so it helps on any subject, and on questions nobody wrote down.
# Month names and their usual abbreviations, for the rules that spot dates (dates.py, recap.py).
MONTHS = tuple("january february march april may june july august september october november december "
               "jan feb mar apr jun jul aug sep sept oct nov dec".split())

SYNONYMS = {
    "join": ["joining", "enroll"],
    "enroll": ["join", "register"],
    "register": ["join", "registration"],
    "signup": ["register"],
    "begin": ["start"],
    "start": ["begin"],
    "fix": ["solve", "repair"],
    "repair": ["fix"],
    "error": ["issue", "problem"],
    "issue": ["error", "problem"],
    "problem": ["error", "issue"],
    "bug": ["error", "defect"],
    "fail": ["failure"],
    "fails": ["failure"],
    "failed": ["failure"],
    "setup": ["install", "configure"],
    "install": ["setup", "installation"],
    "installation": ["install"],
    "configure": ["setup", "config"],
    "config": ["configuration"],
    "assignment": ["task"],
    "deadline": ["due"],
    "submit": ["submission"],
    "video": ["recording"],
    "videos": ["recordings"],
    "cost": ["price"],
    "price": ["cost"],
    "laptop": ["computer"],
    "computer": ["machine"],
    "pc": ["computer"],
    "run": ["running", "start"],
    "locally": ["local"],
    "remove": ["delete"],
    "delete": ["remove"],
    "grade": ["score"],
    "score": ["points"],
    "buy": ["purchase"],
    "purchase": ["buy"],
    "cancel": ["cancellation"],
    "refund": ["reimbursement"],
}

_WORD = re.compile(r"[a-z0-9]+(?:[_-][a-z0-9]+)*")
_WORD_OR_CJK = re.compile(rf"[a-z0-9]+(?:[_-][a-z0-9]+)*|{CJK_RUN.pattern}")
_APOSTROPHES = str.maketrans({"'": "", "\u2019": "", "\u2018": "", "`": " "})
# Suffixes stripped by `stem`, longest first. "ies" -> "y" is handled separately.
_SUFFIXES = ("ations", "ation", "ingly", "ings", "ing", "edly", "ed", "ers", "er", "ly", "es", "s")


def words(text: str) -> list[str]:
    """Split text into lowercase words; apostrophes vanish ("isn't" -> "isnt"), so contractions stay one word.
    Chinese and Japanese, written without spaces, are cut by cjk.py: function words out, the rest as
    pieces of up to two characters.

    Example:
        >>> words("Can't run OPENAI_API_KEY!")
        ['cant', 'run', 'openai_api_key']
        >>> words("北京今天天气怎么样？")
        ['北京', '天气']
    """
    lowered = text.lower().translate(_APOSTROPHES)
    if lowered.isascii() or not CJK_RUN.search(lowered):  # isascii: a fast pass over megabytes of English
        return _WORD.findall(lowered)
    out: list[str] = []
    for match in _WORD_OR_CJK.finditer(lowered):
        token = match.group(0)
        out += cjk_words(token) if CJK_RUN.fullmatch(token) else [token]
    return out


def content_words(text: str) -> list[str]:
    """The words of `text` that are not stop words, in order, without repeats.

    Example:
        >>> content_words("How do I bake sourdugh at home?")
        ['bake', 'sourdugh', 'home']
    """
    seen, out = set(), []
    for word in words(text):
        if word in STOP_WORDS or word in seen or (len(word) < 2 and not word.isdigit()):
            continue
        seen.add(word)
        out.append(word)
    return out


# Cached: the rules ask for the stems of the same few hundred words (a request's, a schema's, the stop words)
# hundreds of thousands of times per benchmark run; a stem depends on the word alone.
@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude stem: strip one common English suffix so "installing", "installed", "installs" meet.

    Example:
        >>> stem("reservations"), stem("reserved"), stem("weakness"), stem("weaknesses")
        ('reserv', 'reserv', 'weakness', 'weakness')
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    for suffix in _SUFFIXES:
        if suffix == "s" and word.endswith("ss"):
            break  # "weakness", "class": the double s is the word's own, so they meet "weaknesses", "classes"
        # "-ly" needs a longer remainder, or "apply" and "early" would lose real letters.
        if word.endswith(suffix) and len(word) - len(suffix) >= (4 if suffix == "ly" else 3):
            word = word[: -len(suffix)]
            break
    # "install" / "installe" / "reserv(e)": drop a final e and a doubled consonant, so that
    # "run"/"running" and "locate"/"located" land on the same stem.
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]
    return word


# The stems of the stop words, which several rules take away from a set of stems.
STOP_STEMS = frozenset(stem(w) for w in STOP_WORDS)


def stems(text: str) -> set[str]:
    """The set of stems of all words of a text (stop words included; they rarely matter in a set).

    Example:
        >>> sorted(stems("Installing Postgres"))
        ['install', 'postgr']
    """
    found = set()
    for word in words(text):
        found.add(stem(word))
        if "-" in word or "_" in word:  # "self-paced" also counts as "self" and "paced"
            found.update(stem(part) for part in re.split(r"[-_]", word) if part)
    return found


def close_words(word: str) -> list[str]:
    """Related words worth adding to a search query: other forms of the word and general synonyms.

    Example:
        >>> close_words("locally")
        ['local']
        >>> close_words("join")
        ['joining', 'enroll']
    """
    out: list[str] = []
    if word.isalpha() and len(word) > 4:
        if word.endswith("ly") and len(word) > 5:
            out.append(word[:-2])
        elif word.endswith("ies"):
            out.append(word[:-3] + "y")
        elif word.endswith("ing") and len(word) > 5:
            base = word[:-3]
            out.append(base[:-1] if len(base) > 3 and base[-1] == base[-2] not in "ls" else base)
        elif word.endswith("ed") and not word.endswith("eed"):
            base = word[:-2]
            out.append(base[:-1] if len(base) > 3 and base[-1] == base[-2] not in "ls" else base)
        elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
            out.append(word[:-1])
    out.extend(SYNONYMS.get(word, []))
    return [w for w in dict.fromkeys(out) if w != word]  # once each, in order, without the word itself


def edit_distance(a: str, b: str, limit: int = 3) -> int:
    """Damerau-Levenshtein distance (optimal string alignment): insertions, deletions, substitutions and
    swaps of two neighbours each cost 1. Stops early and returns `limit + 1` once the distance must
    exceed `limit`, which keeps typo search over a whole vocabulary fast.

    Example:
        >>> edit_distance("sourdugh", "sourdough"), edit_distance("discord", "discards")
        (1, 2)
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def typo_limit(word: str) -> int:
    """How many edits still count as a typo: 0 for words under 5 letters (a 4-letter word is one edit away
    from too many others: bake, cake, make, take), 1 up to 8 letters, 2 from 9 letters on. Tight on
    purpose: with no dictionary, a real word the documents lack ("discord", 2 edits from "discards") must
    not be taken for a typo, and real words two edits apart are common only among short words.

    Example:
        >>> typo_limit("olive"), typo_limit("reservaton")
        (1, 2)
    """
    if len(word) < 5:
        return 0
    return 1 if len(word) <= 8 else 2



def spelling_variants(word: str) -> list[str]:
    """The spellings a word would have with one of the commonest slips undone: a letter doubled or
    undoubled ("gerit" -> "gerrit"), two neighbouring letters swapped. Only words long enough to have a
    typo (`typo_limit`), and only variants as long: shorter ones are real words too often.

    Example:
        >>> spelling_variants("gerit")
        ['ggerit', 'geerit', 'gerrit', 'geriit', 'geritt', 'egrit', 'greit', 'geirt', 'gerti']
    """
    if typo_limit(word) == 0 or not word.isalpha():
        return []
    out = [word[:i + 1] + word[i:] for i in range(len(word))]  # a letter doubled
    out += [word[:i] + word[i + 1:] for i in range(1, len(word)) if word[i] == word[i - 1]]  # undoubled
    out += [word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1) if word[i] != word[i + 1]]
    return [v for v in dict.fromkeys(out) if v != word and typo_limit(v) > 0]


def number_text(value: float) -> str:
    """A number as an answer writes it: a whole number without its ".0".

    Example:
        >>> number_text(14.0), number_text(2.5)
        ('14', '2.5')
    """
    return str(int(value)) if float(value).is_integer() else str(value)
