"""Send the model less: a lean search tool that sends no result twice (lesson 06).

Every call of the agent loop re-sends the whole conversation, so each token of a tool output is paid for
again on every later call. `make bench` measured the candidate techniques one by one over the LLM Zoomcamp's
320 answerable ground-truth questions (see helpers.maint.bench); what paid is here:
- `LeanSearch`: the search tool with the boosts tuned in lesson 12 and 4 results instead of 5, only the
  fields the model needs (id, question, answer) as compact JSON, and a result the model has already seen
  for this question sent again as its id alone;
- `LEAN_SEARCH_TOOL`: the same tool described in fewer words (its schema is sent on every call).
The third technique that paid, `drop_tool_outputs` (the finished turns without their tool calls and outputs),
is about the history rather than the tool: it is in helpers.history with lesson 15's policies.

What it leaves out on purpose, because it did not pay on the benchmark: answers cut short with a tool to
fetch the full entry (the offline model then cites the right entry less often), and 3 results (one fewer
correct citation). The lessons' defaults stay as they are; pass these in where you want them.
"""

from __future__ import annotations

from helpers.search import DEFAULT_COURSE, TUNED_BOOST, search
from helpers.tools import serialize

LEAN_FIELDS = ["id", "question", "answer"]
LEAN_NUM_RESULTS = 4

# The search tool in fewer words: the model still learns what it searches and what a query looks like.
LEAN_SEARCH_TOOL = {
    "type": "function",
    "name": "search",
    "description": "Search the course FAQ.",
    "parameters": {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "Keywords, e.g. 'join course late'."}},
        "required": ["query"],
        "additionalProperties": False,
    },
}


class LeanSearch:
    """A search tool whose output costs fewer tokens: tuned boosts, 4 results, 3 fields, compact JSON, and
    an entry already sent for this question sent again as {"id": ..., "seen": true}.

    It remembers what it sent until `forget()`: call that before each new question of a conversation. An
    entry sent three questions ago is far up the history, and a model (the offline one reads only the current
    question's tool outputs) may not connect a bare id to it; within one question the repeat is right there.

    Example:
        >>> from helpers.search import default_index
        >>> tools = {"search": LeanSearch(default_index())}
        >>> print(tools["search"]("join late"))
        [{"id":"74eb249bbf","question":"I just discovered the course. Can I still join?","answer":"Yes, but if
        you want to receive a certificate, you need to submit your project while we’re still accepting
        submissions."}]
    """

    def __init__(self, index=None, *, course: str | None = DEFAULT_COURSE, num_results: int = LEAN_NUM_RESULTS,
                 boost: dict | None = None, fields: list[str] | None = None, no_repeats: bool = True):
        self.index, self.course, self.num_results = index, course, num_results
        self.boost = dict(TUNED_BOOST if boost is None else boost)
        self.fields = list(LEAN_FIELDS if fields is None else fields)
        self.no_repeats = no_repeats
        self.sent: set[str] = set()

    def __call__(self, query: str) -> str:
        results = search(query, index=self.index, course=self.course, num_results=self.num_results,
                         boost=self.boost)
        out = []
        for doc in results:
            if self.no_repeats and doc["id"] in self.sent:
                out.append({"id": doc["id"], "seen": True})  # the model has its text already, further up
            else:
                out.append(doc)
            self.sent.add(doc["id"])
        return serialize(out, fields=self.fields + ["seen"])

    def forget(self) -> None:
        """Forget what was sent: call it before the next question (and after dropping old tool outputs).

        Example:
            >>> from helpers.search import default_index
            >>> lean = LeanSearch(default_index())
            >>> _ = lean("join late")
            >>> lean("join late")[:32]
            '[{"id":"74eb249bbf","seen":true}'
            >>> lean.forget()
            >>> lean("join late")[:60]
            '[{"id":"74eb249bbf","question":"I just discovered the course'
        """
        self.sent.clear()
