"""What a request asks for: the noun phrases after its verb and wh-word, each with its head and the words of kind.

`asked_phrases(question)` reads "What is the freezing point of water at 10 kPa?" as one phrase, `freezing
point`: its last word, `point`, is the head (what is asked), the words before it say which kind. A phrase
runs from the first content word after the request's verb and wh-word up to a preposition, a name, a number or
a participle that starts a clause about it ("a lawyer specializing in"); nouns that only count or name things
are skipped first ("the number of", "the names of"). Phrases joined by "and", "or" or a comma are read too
("the rating and player count"), and so is a verb's object ("play a song", "turn on the lights", "order 2 pizzas": the verb, then its object).
`questions_in(text)` adds the question a request asks after a clause of context ("In a series of 10 shots, what
is the probability ..."), and `is_definition_question` tells "What is a holy book?", which asks what a kind of
thing is, from a request about one particular thing.

The word lists are general English (request verbs, counting nouns, prepositions, modifiers that narrow
nothing), about no subject.

What it leaves out on purpose: a parser. Which word is a noun is guessed from its place; a phrase whose head is
a verb the lists lack ("the rise and fall of") or a name written in lower case is read as it stands.
"""

from __future__ import annotations

import re

from helpers.offline.cjk import CJK_RUN
from helpers.offline.text import STOP_WORDS, content_words, stem

# Words a request starts with before saying what it wants, and nouns that only count, list or name things.
REQUEST_WORDS = frozenset("""calculate compute find get give tell show determine identify retrieve fetch estimate
predict provide list look search check what whats which who whom whose where when how is are was were can could
would will should please me my i us we you your let lets do does did need want help know like about there here
kindly using use perform run make generate create obtain given based certain specific specified particular""".split())
COUNTING_NOUNS = frozenset("""number numbers name names list type types kind kinds details detail information info
value values amount total result results data set way ways much many""".split())
# Modifiers that narrow nothing: "the current weather" is the weather, "the estimated population" the population.
GENERIC_MODIFIERS = frozenset({stem(w) for w in """current latest recent new total average overall general
estimated expected predicted given specific particular certain detailed basic full complete exact approximate
actual real best top main quick simple good next last previous following coming first""".split()})
# Words that lead from a verb to its object ("play a song", "turn on the lights", "book me a room"); not "of" or
# "for", which lead from a noun to what it is of ("the derivative of the function").
_TO_OBJECT = frozenset("""a an the some my your our his her their this that these those on off up down out me us
him them""".split())
# Words that end a noun phrase: prepositions and participles the stop words leave out ("the distance between",
# "proteins found in"), and number words (a count, not what is asked).
_PHRASE_ENDS = frozenset("""between during near within without across among around after before since until till
versus vs including regarding according based found located made used held given one two three four five six
seven eight nine ten twelve hundred thousand million""".split())
_NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten twelve twenty hundred".split())
TOKEN = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*|[^\w\s]")  # words, and each mark of punctuation alone
PHRASE_WORDS = 4  # the longest noun phrase read as what is asked ("the dominant genetic trait")
PHRASES = 4  # at most this many phrases: the verb's, its object's, and coordinated ones ("the rating and count")
# A question asked after a clause of context: "In a series of 10 shots, what is the probability ...".
# So is a task asked after a preamble: "I'm planning a trip and need to know the tide times ...".
_LATE_QUESTION = re.compile(r"[,;:]\s*(?=(?:what|which|how|who|where|when|can you|could you|please)\b)"
                            r"|\b(?:to|and|please|you|me)\s+(?=(?:know|find|tell|show|give|get|check|calculate|compute|"
                            r"estimate|determine|retrieve|fetch|see|learn|look)\b)", re.I)
# "What is a holy book?", "What does 'umami' mean?": what a kind of thing is, and no more. "What are tapas?" is left
# out: without the article, the plural may name one thing in lower case.
_DEFINITION = re.compile(r"^\s*(?:what\s+is\s+an?\s+[\w\s'-]{1,40}?|what\s+does\s+[\w\s'\"-]{1,40}?"
                         r"\s+mean|define\s+[\w\s'-]{1,40}?)\s*[?.!]?\s*$", re.I)


# "What are some recipes for dinner?" asks for instances to look up, not for what recipes are.
_INSTANCES = re.compile(r"\b(?:some|any|good|best|recommended|popular|top|available|nearby|latest|current)\b", re.I)


_ADDRESS = re.compile(r"\S+@\S+\.\w+|\bhttps?://\S+|\bwww\.\S+", re.I)


def _ends_phrase(tokens: list[str], i: int, phrase: list[str]) -> bool:
    """Whether tokens[i] can't be part of a noun phrase that holds `phrase` so far."""
    token, word = tokens[i], tokens[i].lower()
    if not word.isalnum() or word in STOP_WORDS or word in REQUEST_WORDS or word in _PHRASE_ENDS:
        return True
    if any(ch.isdigit() for ch in word):
        return True  # a number or a code is a value, not what is asked
    if token[:1].isupper() and i and tokens[i - 1] not in (".", "?", "!", '"', ":", "\u201c"):
        return True  # a capital inside a sentence starts a name: a value, not what is asked
    # A participle after the phrase's noun starts a clause about it: "a lawyer specializing in", "cases handled by".
    return any(w not in GENERIC_MODIFIERS for w in phrase) and word.endswith(("ing", "ed")) and len(word) > 5


# A question whose verb comes after its subject: "When does the ferry leave?", "How do bees make wax?".
_AUXILIARY_QUESTION = re.compile(r"^\W*(?:when|where|how|why|what|which|who)\s+(?:do|does|did|will|would|can|could|"
                                 r"should|shall|may|might)\b", re.I)


def _is_count(token: str) -> bool:
    return token.isdigit() or token.lower() in _NUMBER_WORDS


def asked_phrases(question: str) -> list[list[str]]:
    """What the request asks for, as noun phrases of stems (see the module). A phrase's last word is its head.

    Example:
        >>> asked_phrases("What is the freezing point of water at 10 kPa?")
        [['freez', 'point']]
        >>> asked_phrases("Please book a table for two")
        [['book'], ['tabl']]
        >>> asked_phrases("Find the opening hours and ticket price of the Louvre")
        [['open', 'hour'], ['ticket', 'pric']]
        >>> asked_phrases("When does the next ferry leave?")
        [['next', 'ferry']]
        >>> asked_phrases("Email ana@choir.example the rota")
        [['email']]
    """
    if CJK_RUN.search(question):
        # Written without spaces, there is no word order to read phrases from: each of the first content pieces
        # stands alone (cjk.py cuts them), so any of them may say what is asked.
        return [[stem(w)] for w in content_words(question) if not w.isdigit()][:PHRASES - 1]
    # An address or a link is a value, as a name is: "Email ana@choir.example ..." asks to email, not for "ana".
    question = _ADDRESS.sub(" @ ", question)
    tokens = [t.replace("\u2019", "'").replace("'", "") for t in TOKEN.findall(question)]
    phrases: list[list[str]] = []
    i, joined, to_object = 0, False, False
    while i < len(tokens) and len(phrases) < PHRASES:
        word = tokens[i].lower()
        if _ends_phrase(tokens, i, []) or word in COUNTING_NOUNS:
            if phrases and word in ("and", "or", ","):
                joined = True  # a coordinated phrase follows
            elif len(phrases) == 1 and len(phrases[0]) == 1 and (word in _TO_OBJECT or any(c.isdigit() for c in word)):
                to_object = True  # a verb's object follows its article, particle or count: "turn on the lights"
            elif phrases and not joined and not to_object:
                break
            i += 1
            continue
        phrase = []
        while i < len(tokens) and len(phrase) < PHRASE_WORDS:
            if _ends_phrase(tokens, i, phrase):
                if not (phrase and all(w in GENERIC_MODIFIERS for w in phrase) and _is_count(tokens[i])):
                    break
                i += 1  # "the next five matches": a count after "next" or "top" leads on to the noun
                continue
            phrase.append(stem(tokens[i].lower()))
            i += 1
        if not phrase:
            break
        if not phrases and len(phrase) > 1 and _AUXILIARY_QUESTION.match(question):
            phrase = phrase[:-1]  # "When does the next train leave ...?": the last word is the verb, not the head
        phrases.append(phrase)
        joined = to_object = False
    return phrases


def questions_in(text: str) -> list[str]:
    """The request, and each question it asks after a clause of context.

    Example:
        >>> questions_in("In a match of 10 games, what is the chance of 4 wins?")
        ['In a match of 10 games, what is the chance of 4 wins?', 'what is the chance of 4 wins?']
    """
    return [text] + [text[match.end():] for match in _LATE_QUESTION.finditer(text)]


def is_definition_question(question: str) -> bool:
    """Whether the request only asks what a kind of thing is: no name, number or quote to look up.

    Example:
        >>> is_definition_question("What is a holy book?"), is_definition_question("What is the price of rye?")
        (True, False)
        >>> is_definition_question("What are some vegan recipes?")
        False
    """
    text = question.strip()
    if not _DEFINITION.match(text) or re.search(r"\d", text) or _INSTANCES.search(text):
        return False
    rest = TOKEN.findall(text)[1:]
    if any(t[:1].isupper() for t in rest):
        return False  # "What is Kubernetes?" names one thing: a lookup may know it
    return not re.search(r"\b(?:the|my|your|our|this|that|these|those)\b", text, re.I)  # "the price of ..." is one
