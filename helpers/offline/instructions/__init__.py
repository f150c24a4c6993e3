"""Reading the instructions: what they ask for, as a grammar of plain English, parsed once.

`read_instructions(text) -> Instructions` reads every form the offline model honours, wherever it
stands in the instructions, with counts in digits or words (numbers.py), in the parts of a long text that a
cue word points at (clauses.py):

| form | module | example |
| --- | --- | --- |
| labels and the topic that earns each | labels.py | "Reply ALLOW if the question is about X, BLOCK otherwise" |
| a scope | scope.py | "Only answer questions about the Riverside Bakery's products" |
| a search count or research in rounds | searches.py | "Search twice", "first search, then search again with words from the results" |
| an output form | form.py | "in at most 20 words", "two sentences", "JSON with the keys a and b", "end with a question" |
| an instruction not to call tools | tool_use.py | "Do not use any tools", "Answer without calling functions" |
| pasted material, a JSON schema | context.py | "CONTEXT:" blocks; "respond with JSON compatible with this schema: {...}" |

What a topic is, and when a question is about it, is topic.py's rule: the words the instructions use
for the topic (plus tool descriptions, documents given, and a vocabulary about the topic), never a
built-in vocabulary. Each module's docstring says the limit of its forms. An instruction worded in a way
none of these grammars covers is not followed, as a weaker real model would miss it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from helpers.offline.conversation import Conversation
from helpers.offline.instructions.clauses import unwrap
from helpers.offline.instructions.context import PASTED, pasted_material, schema_in_text, split_context
from helpers.offline.instructions.form import OutputForm, closing_question, fit, read_form, wants_follow_up
from helpers.offline.instructions.labels import LabelRule, read_labels
from helpers.offline.instructions.scope import Scope, has_guardrail, read_scope, scope_of
from helpers.offline.instructions.searches import SearchPlan, read_searches, wanted_searches
from helpers.offline.instructions.tool_use import forbids_tools
from helpers.offline.instructions.topic import Topic, about


@dataclass(frozen=True)
class Instructions:
    """Everything the instructions ask for, read once.

    Example:
        >>> read_instructions("Search twice. Answer in one sentence.").searches.count
        2
    """

    labels: LabelRule | None
    scope: Scope | None
    searches: SearchPlan
    form: OutputForm
    no_tools: bool = False  # "Do not use any tools" (tool_use.py)


@lru_cache(maxsize=256)
def read_instructions(text: str) -> Instructions:
    """The instructions parsed into what they ask for (cached: a loop sends the same text every turn).

    Example:
        >>> read_instructions("Answer YES if it is about trains, NO otherwise.").labels.labels
        ('YES', 'NO')
    """
    text = unwrap(text or "")  # a sentence wrapped by hand is read as one
    return Instructions(read_labels(text), read_scope(text), read_searches(text), read_form(text),
                        forbids_tools(text))


def given_text(conv: Conversation) -> str:
    """What the request gives besides the instructions and the question, whose words join every topic:
    the tools' names and descriptions (and their parameters' descriptions).

    Example:
        >>> from helpers.offline.conversation import Tool
        >>> given_text(Conversation(tools=[Tool("find_cake", "Look up a cake by name")]))
        'find cake Look up a cake by name'
    """
    parts = []
    for tool in conv.tools:
        parts += [tool.name.replace("_", " "), tool.description]
        for spec in ((tool.parameters or {}).get("properties") or {}).values():
            if isinstance(spec, dict) and isinstance(spec.get("description"), str):
                parts.append(spec["description"])
    return " ".join(p for p in parts if p)


def label_choice(text: str) -> tuple[str, str] | None:
    """The (positive, negative) labels an instruction names, or None.

    Example:
        >>> label_choice("Reply with exactly one word: ALLOW or BLOCK")
        ('ALLOW', 'BLOCK')
    """
    rule = read_labels(text)
    return (rule.positive, rule.negative) if rule else None


__all__ = ["PASTED", "Instructions", "LabelRule", "OutputForm", "Scope", "SearchPlan", "Topic", "about", "closing_question", "fit", "forbids_tools", "given_text",
           "has_guardrail", "label_choice", "pasted_material", "read_form", "read_instructions", "read_labels", "read_scope",
           "read_searches", "schema_in_text", "scope_of", "split_context", "wanted_searches", "wants_follow_up"]
