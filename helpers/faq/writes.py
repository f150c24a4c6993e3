"""The course's writing tool, lesson 09's `add_faq_entry`, for the lessons and modules after it (13, 14, 16).

What it does: `faq_entry_writer(index, existing=..., added=...)` returns the function `add_faq_entry(question,
answer)` that lesson 09 wrote in its notebook, over the index and lists passed in. It keeps lesson 09's four
safeguards:
- narrow: it only appends one entry (to `index`, when there is one) and never edits or deletes;
- validated: the length limits are in its type hints (so in the tool's schema, checked before it runs), and a
  question already in `existing` comes back as an error payload, not as a second entry;
- labelled: its entries carry the section "Added by the agent" and the ids `agent-1`, `agent-2`, ...;
- logged: every entry also goes to `added`, the list a person reviews.
It is a plain function with a docstring, so helpers.tools' `Tools`, the Agents SDK's `function_tool`,
PydanticAI's `tool_plain` and an MCP server all read the same name, description and parameters.

Left out on purpose: storage (the entries live in the lists and index the caller owns), undoing a write, and
asking a person first (lesson 13 puts that around the tool, not inside it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated

from pydantic import Field

ADDED_SECTION = "Added by the agent"  # lesson 09: the agent's entries are labelled, for a person to review
COURSE = "llm-zoomcamp"
DUPLICATE = {"error": "an entry with this question already exists", "hint": "Search for it instead."}

# The parameters as lesson 09 typed them; the descriptions repeat the docstring's Args for readers (MCP) that
# take a schema's words from the type hints only.
Question = Annotated[str, Field(min_length=10, max_length=200,
                                description="The question, phrased as a student would ask it.")]
Answer = Annotated[str, Field(min_length=10, max_length=1000, description="The answer, in one or two sentences.")]


def faq_entry_writer(index=None, *, existing: Sequence[dict] = (),
                     added: list[dict] | None = None) -> Callable[..., dict]:
    """Lesson 09's `add_faq_entry` over `index` (anything with `append(entry)`, e.g. a minsearch
    AppendableIndex; None: the entries go to `added` only). `existing`: the entries whose questions it refuses
    to repeat (lesson 09's FAQ list, which its index appends to). `added`: where it logs each entry.

    Example:
        >>> added = []
        >>> add_faq_entry = faq_entry_writer(existing=[{"question": "Can I join late?"}], added=added)
        >>> add_faq_entry("Is there a Discord server?", "No, the course chat is on Slack.")
        {'added': 'agent-1'}
        >>> add_faq_entry("can I join late? ", "Yes, the videos stay online.")["error"]
        'an entry with this question already exists'
        >>> [entry["section"] for entry in added]
        ['Added by the agent']
    """
    log = [] if added is None else added

    def add_faq_entry(question: Question, answer: Answer) -> dict:
        """Add a new entry to the LLM Zoomcamp FAQ. Only use it when the user explicitly asks to add an entry.

        Args:
            question: The question, phrased as a student would ask it.
            answer: The answer, in one or two sentences.
        """
        asked = question.strip().lower()
        if any(doc["question"].strip().lower() == asked for doc in existing):
            return dict(DUPLICATE)
        entry = {"id": f"agent-{len(log) + 1}", "course": COURSE, "section": ADDED_SECTION,
                 "question": question.strip(), "answer": answer.strip()}
        if index is not None:
            index.append(entry)
        log.append(entry)
        return {"added": entry["id"]}

    return add_faq_entry
