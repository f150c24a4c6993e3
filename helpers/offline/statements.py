"""A parameter that takes a whole statement: filled with what the user asked to keep, not with a name from it.

A tool that saves something ("remember(fact)", "add_note(note)", "log_memory(text: the sentence to store)") wants
the user's statement itself. A parameter reads like that when its name or description says fact, note, memory,
statement or sentence, or speaks of what to remember, save or store, and its description gives no short example
value ("The first note, e.g. 'C4'" asks for a note like C4; an example that is a sentence asks for a sentence). It gets the user's message without the
request around it: "Please remember that my locker is 318" -> "My locker is 318." Any other parameter is left
to the other argument rules (arguments.py).

What it leaves out on purpose: rewriting. A real model would turn "my" into "the user's", split two facts
into two calls and leave out chatter; this rule keeps the user's own words, in one call.
"""

from __future__ import annotations

import re

from helpers.offline.param_values import listed_values, quoted_values

_STATEMENT_PARAM = re.compile(r"\b(?:facts?|notes?|memory|memories|statement|sentence)\b|"
                              r"\b(?:to|should|will)\s+(?:be\s+)?(?:remember|saved?|stored?|kept|memori[sz]e)d?\b",
                              re.IGNORECASE)
_REQUEST = re.compile(r"^\s*(?:(?:please|ok|okay|and|also)[,\s]+)*(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?"
                      r"(?:remember|note(?:\s+down)?|save|store|keep\s+in\s+mind|memori[sz]e|don'?t\s+forget|"
                      r"make\s+a\s+note)(?:\s+(?:this|the\s+fact))?(?:\s+that)?[:,\s]+", re.IGNORECASE)


def statement_for(name: str, schema: dict, question: str) -> str | None:
    """The user's statement for a parameter that takes one, else None.

    Example:
        >>> statement_for("fact", {"type": "string"}, "Please remember that my locker is 318.")
        'My locker is 318.'
        >>> statement_for("city", {"type": "string"}, "Please remember that my locker is 318.") is None
        True
        >>> statement_for("start_note", {"description": "The first note, e.g. 'C4'."}, "Start on the note D5") is None
        True
        >>> statement_for("fact", {"description": 'The fact, e.g. "The cat is Tom".'}, "Remember that my bike is red.")
        'My bike is red.'
    """
    words = f"{name.replace('_', ' ')} {schema.get('description', '')}"
    if not _STATEMENT_PARAM.search(words):
        return None
    examples = listed_values(schema) + quoted_values(str(schema.get("description") or ""))
    if examples and all(len(str(example).split()) < 3 for example in examples):
        # "The first note ... E.g., 'C4'": a short example value asks for a value like it, not a statement;
        # an example that is itself a sentence ("e.g. 'The user's dentist is Dr Osei'") asks for a statement.
        return None
    text = _REQUEST.sub("", question.strip(), count=1).strip().rstrip("?!. ")
    text = re.sub(r",?\s*(?:please|thanks|thank\s+you)$", "", text, flags=re.IGNORECASE)  # politeness, not the fact
    if not text:
        return None
    return text[0].upper() + text[1:] + "."
