"""Whether a search tool's collection may hold what the request asks: a search scoped by its description to one
collection is asked only what that collection is about.

"Search the sailing club's handbook: membership rules, guest policy, ..." holds nothing about tomorrow's weather in
Lisbon, and a real model does not search it for that. `scope_words(tool)` are the stems of what the tool says it
holds: the content words of its name, its description and its parameters' descriptions, without
- the words every search says of itself (search, query, results, ...);
- a phrase that a collection noun or such a word heads ("the club's notes", "the team handbook", "the desk's rules",
  "a member's question"): it says whose collection it is, not what it holds;
- the examples of a query ("e.g. 'celadon cone 6'"): one query people send, not the bounds of the collection.
A search that says nothing else ("Search the team's notes.") says nothing of what it holds.
`search_fits(tool, question)` is true when:
- the request is one a lookup may serve (chatter.py: no greeting, chit-chat, question about the assistant or text
  to translate; and, for an open search, no text to compose: "write a riddle" needs no web search);
- and the search is open (its description names the web or any topic: "Search the internet for ... any topic"),
  or says nothing of what it holds, or the request says one of its scope words (a word's forms meet when one of
  four letters or more starts the other: "hive" and "hives"). Words inside quotes of a text to compose are the
  text, not what it is about.
`best_search(tools, question)` is the search to call among several: the scoped one whose scope the request says
most of, else an open one, else none. A follow-up that leaves its subject to the turn before (`FOLLOW_UP`: "And in
July?") is given the earlier turn's search by the engine.

When the engine asks it: only with no vocabulary handed in and no instruction to search (`told_to_search`; instructions
that make the model the keeper of the collection, "You are the lost property desk", count as one). A
vocabulary handed in (by a client that knows its documents) says what they hold better than a one-line
description, and the search-first rule stands there: every question is searched, and an off-topic one finds nothing relevant. An
instruction that says to search ("Search the manual before you answer") is obeyed.

What it leaves out on purpose: meaning. A synonym of every scope word ("dinghy" asked of a handbook that says only
"boats") finds no scope word, and a common word in a long description ("hours", "day") lets an off-topic request
in. A description in one language asked in another shares no word, so the search is not called.
"""

from __future__ import annotations

import re

from helpers.offline.asked import COUNTING_NOUNS, GENERIC_MODIFIERS, REQUEST_WORDS
from helpers.offline.chatter import chat_kind, needs_no_lookup
from helpers.offline.cjk import CJK_RUN, is_cjk
from helpers.offline.conversation import Tool
from helpers.offline.field_roles import name_words
from helpers.offline.text import STOP_STEMS, STOP_WORDS, content_words, stem, word_list

# Words any search says of itself, whatever it holds: what it does, what it takes, what it returns, and the nouns
# of a collection of any subject. General English about searching, about no subject.
_SEARCH_WORDS = frozenset(stem(w) for w in word_list("""search searches searching query queries keyword keywords term
terms lookup look looking up find finds finding retrieve retrieves return returns returning match matches matching
result results entry entries record records item items text string phrase input question questions answer answers
paragraph paragraphs snippet snippets document documents doc docs article articles page pages note notes database
db collection index archive knowledge base store repository content contents source sources thing things topic
topics e g eg etc use used using user users relevant related top best given provided along each per by way
information info data read reads browse scan 搜索 查询 查找 检索"""))
# Words a schema says of any parameter ("query parameter", "the value to match"), and words of where stored entries
# came from ("facts saved in earlier conversations"): they say how the collection was filled, not what it is about.
_SEARCH_WORDS |= frozenset(stem(w) for w in word_list("""parameter parameters param params argument arguments arg
args value values field fields option options optional required default string type fact facts saved save stored
store kept earlier previous past prior conversation conversations session sessions chat chats history memory
memories long term recall recalls remembered"""))
# The commonest function words of the other languages a description or a request may be written in (Spanish,
# German, French, Italian, Portuguese): text.STOP_WORDS is English, and "die" or "el" is no scope word.
_FOREIGN_STOP_WORDS = frozenset(word_list("""el la los las un una unos unas del al en por para con se su sus es que
qué y o der die das den dem des ein eine einen einem einer und oder zu im am ist sind mit von für auf wie was wer wann
le les une et du au aux pour avec est il lo gli di da per na no do dos em um uma com"""))
# A search of the open world answers any question: its description names the web or any topic.
_OPEN = re.compile(r"\b(?:internet|web|online|google|bing|duckduckgo|wikipedia|encyclop\w*|world\s*wide|"
                   r"any\s+(?:topic|subject|question|query)|anything|general\s+(?:knowledge|information|search))\b", re.I)
_QUOTED = re.compile(r"[\"\u201c\u201d\u00ab\u00bb\u201e]([^\"\u201c\u201d\u00ab\u00bb\u201e]+)[\"\u201c\u201d\u00ab\u00bb\u201e]"
                     r"|(?<![A-Za-z])'([^']+)'(?![A-Za-z])")
# A follow-up that leaves its subject to the turn before it ("And in July?", "What about Oslo?", "Und morgen?"):
# the engine asks the earlier turn's fit for it.
FOLLOW_UP = re.compile(r"^\s*(?:and|what about|how about|und|y|et)\b", re.I)
# "Search the manual before you answer", "use the search tool", "always look it up first": an order to search.
_TOLD = re.compile(r"\b(?:search|look\s+(?:it|them|this|that)?\s*up|use\s+(?:the|your|a)\s+\w*\s*(?:tool|function)s?|"
                   r"call\s+(?:the|a)\s+\w*\s*(?:tool|function))", re.I)


# Nouns of a collection of any subject: a phrase they head ("the club's notes", "the desk's rules", "the team
# handbook") says whose collection it is, not what it holds. A word of initials stands for its phrase's words.
_COLLECTIONS = frozenset(stem(w) for w in word_list("""notes note documents document docs database db records
archive archives files collection repository entries articles pages content contents handbook manual guide catalogue
catalog rules index log logs logbook journal diary register"""))
_COLLECTION_PHRASES = ("frequently asked questions", "knowledge base")
_INITIALS = frozenset("".join(w[0] for w in phrase.split()) for phrase in _COLLECTION_PHRASES)
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]*)*|\S")


def _is_collection(token: str) -> bool:
    """A collection noun, or a word every search says of itself ("a member's question", "the given query")."""
    return stem(token.lower()) in _COLLECTIONS | _SEARCH_WORDS or token.lower() in _INITIALS  # "kb" in a name


def _without_collections(text: str) -> str:
    """The text without the phrases a collection noun (or a search's own word) heads: the noun and the content
    words right before it."""
    for phrase in _COLLECTION_PHRASES:
        text = re.sub(rf"\b{phrase}\b", " ", text, flags=re.I)
    tokens = _WORD.findall(text)
    keep = [True] * len(tokens)
    for i, token in enumerate(tokens):
        if not _is_collection(token):
            continue
        j = i
        while j >= 0 and (j == i or (tokens[j][:1].isalnum() and tokens[j].lower() not in STOP_WORDS)
                          or tokens[j] in ("'", "\u2019", "-")):
            keep[j] = False
            j -= 1
    return " ".join(t for t, k in zip(tokens, keep, strict=True) if k)


# An example of a query ("e.g. 'celadon cone 6'") is one query people send, a sample, not the bounds of what the
# collection holds.
_EXAMPLE = re.compile(r"\b(?:e\.\s?g\.|for example|such as|like)[,:]?\s*(?:(?:[\"'\u2018\u201c][^\"'\u2019\u201d]*[\"'\u2019\u201d]"
                      r"|\w+)(?:\s*(?:,|or|and)\s*)?)+", re.I)


def _tool_words(tool: Tool) -> list[str]:
    props = (tool.parameters or {}).get("properties") or {}
    described = " ".join(str(s.get("description") or "") for s in props.values() if isinstance(s, dict))
    text = _EXAMPLE.sub(" ", f"{tool.description or ''} {described}")
    return [*name_words(_without_collections(tool.name.replace("_", " "))),
            *_content_words(_without_collections(text))]


def _content_words(text: str) -> list[str]:
    """The content words of a text in any alphabet: text.words keeps only a-z, which cuts "mañana" into "ma" and
    "ana"; Chinese and Japanese are cut into pieces as text.content_words cuts them."""
    found = []
    for token in _WORD.findall(text.lower()):
        if CJK_RUN.search(token):
            found += content_words(token)
        elif token[:1].isalnum() and (word := re.sub(r"['\u2019]", "", token)) not in STOP_WORDS \
                and word not in _FOREIGN_STOP_WORDS and len(word) > 1:
            found.append(word)
    return found


def scope_words(tool: Tool) -> set[str]:
    """The stems of what a search tool says it holds (see the module); empty for one that says nothing of it.

    Example:
        >>> sorted(scope_words(Tool("search_hives", "Search the association's notes: queen sightings, swarms.")))
        ['hiv', 'queen', 'sight', 'swarm']
        >>> scope_words(Tool("search_notes", "Search the club's notes.")), scope_words(Tool("search", "Search the KB."))
        (set(), set())
    """
    left_out = _SEARCH_WORDS | STOP_STEMS | GENERIC_MODIFIERS | {stem(w) for w in REQUEST_WORDS | COUNTING_NOUNS}
    # Two characters are a whole piece of Chinese or Japanese (cjk.py), though too short for an English word.
    return {s for w in _tool_words(tool) if w.isalpha() and (len(w) > 2 or is_cjk(w)) and (s := stem(w)) not in left_out}


def is_open_search(tool: Tool) -> bool:
    """Whether the search is of the open world: its description names the web or any topic.

    Example:
        >>> is_open_search(Tool("web_search", "Search the internet for any topic."))
        True
    """
    return bool(_OPEN.search(f"{tool.name.replace('_', ' ')} {tool.description or ''}"))


def _asked_stems(question: str) -> set[str]:
    """The stems of the request's content words, without its request words, numbers and, in a text to compose,
    the quoted text."""
    if chat_kind(question) == "compose":
        question = _QUOTED.sub(" ", question)
    return {stem(w) for w in _content_words(question) if w not in REQUEST_WORDS and not w.isdigit()}


def _meets(word: str, scope: set[str]) -> bool:
    return word in scope or any(len(s) >= 4 and len(word) >= 4 and (s.startswith(word) or word.startswith(s))
                                for s in scope)


def scope_overlap(tool: Tool, question: str) -> int:
    """How many of the request's words are the search's scope words.

    Example:
        >>> hives = Tool("search_hives", "Search the inspection notes: beehives, queens, swarming.")
        >>> scope_overlap(hives, "any swarms in my beehive?"), scope_overlap(hives, "capital of Peru?")
        (2, 0)
    """
    scope = scope_words(tool)
    return sum(_meets(w, scope) for w in _asked_stems(question))


def search_fits(tool: Tool, question: str) -> bool:
    """Whether the search may hold what the request asks (see the module).

    Example:
        >>> handbook = Tool("search_handbook", "Search the sailing club's handbook: guest policy, bar hours.")
        >>> search_fits(handbook, "can i bring a guest?"), search_fits(handbook, "weather in Lisbon tomorrow?")
        (True, False)
        >>> web = Tool("web_search", "Search the web.")
        >>> search_fits(web, "weather in Lisbon tomorrow?"), search_fits(web, "yo whats up")
        (True, False)
    """
    if needs_no_lookup(question):
        return False
    if is_open_search(tool):
        return chat_kind(question) != "compose"  # "write a riddle" needs no web search
    return not scope_words(tool) or scope_overlap(tool, question) > 0


def best_search(tools: list[Tool], question: str) -> Tool | None:
    """The search to call: the scoped one whose scope the request says most of (the first of equals), else an
    open one or one that says nothing of its scope, else None.

    Example:
        >>> gym = Tool("search_gym", "Search the climbing gym's notices: route resets, closures.")
        >>> web = Tool("web_search", "Search the internet.")
        >>> [best_search([gym, web], q).name for q in ("next route reset?", "tallest mountain in Peru?")]
        ['search_gym', 'web_search']
    """
    fitting = [t for t in tools if search_fits(t, question)]
    scoped = [t for t in fitting if not is_open_search(t) and scope_words(t)]
    if scoped:
        return max(scoped, key=lambda t: scope_overlap(t, question))  # max keeps the first of equals
    return fitting[0] if fitting else None


def told_to_search(instructions: str, searches: tuple[Tool, ...] | list[Tool] = ()) -> bool:
    """Whether the instructions tell the model to search or to use its tools, or make it the keeper of a search's
    collection ("You are the lost property desk" beside `search_lost_property`): every question it is given is
    for that collection.

    Example:
        >>> told_to_search("Search the manual before you answer."), told_to_search("You are a helpful assistant.")
        (True, False)
        >>> desk = Tool("search_lost_property", "Search the desk's rules.")
        >>> told_to_search("You are the lost property desk.", [desk]), told_to_search("You are a ferry desk.", [desk])
        (True, False)
    """
    if _TOLD.search(instructions or ""):
        return True
    return bool(instructions) and any(scope_overlap(tool, instructions) for tool in searches)
