"""The error a student can fix themselves: a setup problem whose message says what happened and what to do.

It lives on its own so that both sides of the provider code can raise it: helpers.llm (choosing a provider)
imports helpers.apis.cassette (record and replay), and the cassette's errors are setup problems too; with the type
in either of them, the other would have to import it back. helpers.llm re-exports it, so
`llm.ProviderError` keeps working. Left out: errors about what the model sent (helpers.tools' ToolError).
"""

from __future__ import annotations


class ProviderError(RuntimeError):
    """A setup problem the student can fix: the message says what happened and what to do.

    In a notebook, IPython shows only the message (via `_render_traceback_`), not a long traceback.
    Example:
        >>> raise ProviderError("GROQ_API_KEY is not set. Get a key at https://console.groq.com and put it in .env")
        Traceback (most recent call last):
        helpers.setup.errors.ProviderError: GROQ_API_KEY is not set. Get a key at https://console.groq.com and put
        it in .env
    """

    def _render_traceback_(self):
        # IPython calls this instead of printing the traceback; a setup error has no useful stack.
        return [f"{type(self).__name__}: {self}"]
