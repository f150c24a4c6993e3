"""Lesson 18's exercise: `my_policy(tool)`, the capstone's approval policy, read from a tool's MCP annotations.

The student writes the policy the capstone agent runs under: "allow" for a tool whose server says it only
reads (`annotations.read_only_hint` is True) and that nothing marks destructive, "ask" for every other tool,
including one that comes with no annotations at all (fail closed: a server that says nothing has promised
nothing). The check lists the tools of a made-up MCP server of its own (a community kitchen's pantry, served in
memory through the official SDK), so the student's function reads the same `mcp.types.Tool` objects a real
`list_tools()` gives, and compares each answer with the annotation's meaning. The names are chosen so that
guessing from a tool's name gets some of them wrong.

Left out on purpose: where annotations come from (a server you don't trust can mark a write read-only; the
lesson says so) and tiers past the two (e.g. "deny"): the capstone's reviewer decides what "ask" leads to.
"""

from __future__ import annotations

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, run_async, run_student_code, task_check

# name -> (annotations the server sends, or None for none; the right answer)
PANTRY = {
    "pantry_levels": ({"read_only_hint": True}, "allow"),
    "find_recipe": ({"read_only_hint": True, "open_world_hint": False}, "allow"),
    "find_and_remove_expired": ({"read_only_hint": False, "destructive_hint": True}, "ask"),
    "list_volunteers": (None, "ask"),
    "log_donation": ({"read_only_hint": False, "destructive_hint": False, "idempotent_hint": True}, "ask"),
    "get_or_create_shift": ({"idempotent_hint": True}, "ask"),
    "clear_shelf": ({"read_only_hint": True, "destructive_hint": True}, "ask"),  # contradictory: fail closed
}


def pantry_tools() -> list:
    """The made-up server's tools, as an MCP client lists them (over the SDK's in-memory transport).

    Example:
        >>> [(t.name, t.annotations is None) for t in pantry_tools()][:2]
        [('pantry_levels', False), ('find_recipe', False)]
    """
    from mcp import Client
    from mcp.server import MCPServer
    from mcp.types import ToolAnnotations

    server = MCPServer("community-pantry")
    for name, (notes, _) in PANTRY.items():
        def tool(item: str = "") -> str:
            return "ok"
        server.add_tool(tool, name=name, description=f"{name.replace('_', ' ')} in the pantry.",
                        annotations=ToolAnnotations.model_validate(notes) if notes is not None else None)

    async def listed() -> list:
        async with Client(server) as client:
            return (await client.list_tools()).tools

    return run_async(listed)  # a notebook's thread already runs an event loop: run_async uses a thread of its own


def _what(notes) -> str:
    if notes is None:
        return "no annotations at all"
    return "annotations " + ", ".join(f"{k}={v}" for k, v in notes.items())


@task_check("18-capstone", "E18", title="An approval policy from MCP annotations")
def check_policy(my_policy):
    """Check `my_policy(tool) -> "allow" | "ask"` on the tools of a made-up MCP server.

    Example:
        >>> def my_policy(tool):
        ...     raise NotImplementedError
        >>> check_policy(my_policy)
        [NOT DONE YET] Task E18 · An approval policy from MCP annotations: replace `raise NotImplementedError` with your code.
    """
    if my_policy is None:
        raise NotDoneYet("define my_policy in the cell above, then run this cell again.")
    tools = pantry_tools()
    answers = {tool.name: run_student_code(my_policy, tool, what="my_policy") for tool in tools}
    odd = sorted({repr(a) for a in answers.values() if a not in ("allow", "ask")})
    fail_if(bool(odd), f"my_policy returned {', '.join(odd)}; return the string 'allow' or 'ask'.")
    allowed = [n for n, (_, right) in PANTRY.items() if right == "allow"]
    fail_if(all(answers[n] == "ask" for n in PANTRY), "every tool is 'ask', so the agent can't even read without a "
            "person: allow the tools whose annotations say they only read.")
    for name, (notes, right) in PANTRY.items():
        if answers[name] != right:
            why = ("a tool the server marks as only reading should run without a person" if right == "allow" else
                   "a person should be asked: nothing here promises that it only reads")
            raise CheckFailed(f"{name} ({_what(notes)}) got {answers[name]!r}: {why}. Read the tool's "
                              "annotations, not its name.")
    return f"{len(allowed)} of {len(PANTRY)} tools run without a person; the rest wait for one"
