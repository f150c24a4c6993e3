"""Ask "does this provider have X?" before a cell uses it, and get one plain line instead of a 404 when it doesn't.

`supports(client, "files_batch")` looks up the preset the client talks to (helpers.llm.provider_of) and its
capabilities (helpers.setup.providers.CAPABILITIES: the Responses API, Chat Completions, stored responses,
conversations, Files and Batch, hosted tools, streaming, tool_choice). When the capability is there it returns
True and prints nothing; when it is missing, or no source confirms it, it prints one line (what is missing, on
which provider, what to use instead) and returns False, so the cell can skip that part and the lesson goes on.
The offline model's own limits (it has no hosted tools) are answered the same way. `capability_table` is the
table `make doctor` prints.

What it leaves out on purpose: probing the server (a request costs quota, and a 404 can mean a wrong URL as well
as a missing API), and stopping a lesson that can't run at all without an API (helpers.llm.require_api does that).
"""

from __future__ import annotations

from helpers.setup.providers import CAPABILITIES, PRETTY_NAMES, Provider


def _preset(client_or_provider) -> Provider:
    if isinstance(client_or_provider, Provider):
        return client_or_provider
    from helpers.llm import provider_of  # imported here: the presets alone need no SDK

    return provider_of(client_or_provider)


def supports(client_or_provider, capability: str, *, instead: str | None = None, say=print) -> bool:
    """True when the provider has `capability`; else print one line saying so (and what to do) and return False.

    `instead` replaces the usual alternative with what this cell does without it; `say` prints the line.
    Example:
        >>> from helpers.setup.providers import PROVIDERS
        >>> supports(PROVIDERS["groq"], "conversations")
        The Conversations API (client.conversations): not on Groq; instead, keep the history in your own list (lesson 15's memory policies).
        False
        >>> supports(PROVIDERS["offline"], "files_batch")
        True
    """
    preset = _preset(client_or_provider)
    have = preset.has(capability)  # a ValueError names the known capabilities
    if have:
        return True
    label, alternative = CAPABILITIES[capability]
    where = PRETTY_NAMES.get(preset.name, f"this server ({preset.base_url})")
    status = "not on" if have is False else "not confirmed on"
    say(f"{label[0].upper()}{label[1:]}: {status} {where}; instead, {instead or alternative}.")
    return False


def capability_table(preset: Provider) -> str:
    """One line per capability: yes, no or "not confirmed", as the preset's sources say.

    Example:
        >>> from helpers.setup.providers import PROVIDERS
        >>> print(capability_table(PROVIDERS["gemini"]).splitlines()[0])
        no             the Responses API (client.responses)
    """
    words = {True: "yes", False: "no", None: "not confirmed"}
    return "\n".join(f"{words[preset.has(name)]:<14} {label}" for name, (label, _) in CAPABILITIES.items())
