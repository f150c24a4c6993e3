"""Lesson 18's exercise: `my_policy(tool)`, the capstone's approval policy in three tiers from MCP annotations.

Lesson 13's `policy_for` (fed by lesson 16 with MCP annotations) asks about every write except one that may
destroy things in the open world and can't be repeated. The capstone's policy is stricter: "allow" for a tool
whose server says it only reads (`readOnlyHint: true`), "ask" for a write the server says is not destructive
(`destructiveHint: false`: it only adds), and "deny" for every other tool, which is then never offered; so
`policy_for` itself fails this check (it asks about a destructive tool that is idempotent). The specification's words decide the edge
cases: `destructiveHint` is meaningful only when the tool is not read-only, and its default is true, so a tool
that says nothing may destroy. The check lists the tools of a made-up MCP server of its own (a community
kitchen's pantry, served in memory through the official SDK), so the student's function reads the same
`mcp.types.Tool` objects a real `list_tools()` gives; the names are chosen so that guessing from a name fails.

Left out on purpose: where annotations come from (a server you don't trust can mark a write read-only; the
lesson says so), and `idempotentHint` and `openWorldHint`, which no tier reads.
"""

from __future__ import annotations

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, run_async, run_student_code, task_check

# name -> (annotations the server sends, or None for none; the right tier)
PANTRY = {
    "pantry_levels": ({"read_only_hint": True}, "allow"),
    "find_recipe": ({"read_only_hint": True, "open_world_hint": False}, "allow"),
    "clear_shelf_view": ({"read_only_hint": True, "destructive_hint": True}, "allow"),  # read-only: the rest is moot
    "log_donation": ({"read_only_hint": False, "destructive_hint": False, "idempotent_hint": True}, "ask"),
    "add_volunteer": ({"destructive_hint": False}, "ask"),
    "find_and_remove_expired": ({"read_only_hint": False, "destructive_hint": True}, "deny"),
    "list_volunteers": (None, "deny"),  # says nothing: by the spec's defaults it may write and destroy
    "get_or_create_shift": ({"idempotent_hint": True}, "deny"),
}
TIERS = ("allow", "ask", "deny")
WHY = {"allow": "its server says it only reads, so it can run without a person",
       "ask": "it writes, and its server says the write only adds (not destructive): a person decides",
       "deny": "nothing says it only reads or only adds, and by the specification's defaults it may destroy"}


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


@task_check("18-capstone", "E18", title="An approval policy in three tiers")
def check_policy(my_policy):
    """Check `my_policy(tool) -> "allow" | "ask" | "deny"` on the tools of a made-up MCP server.

    Example:
        >>> def my_policy(tool):
        ...     raise NotImplementedError
        >>> check_policy(my_policy)
        [NOT DONE YET] Task E18 · An approval policy in three tiers: replace `raise NotImplementedError` with your code.
    """
    if my_policy is None:
        raise NotDoneYet("define my_policy in the cell above, then run this cell again.")
    tools = pantry_tools()
    answers = {tool.name: run_student_code(my_policy, tool, what="my_policy") for tool in tools}
    odd = sorted({repr(a) for a in answers.values() if a not in TIERS})
    fail_if(bool(odd), f"my_policy returned {', '.join(odd)}; return one of the strings 'allow', 'ask' or 'deny'.")
    fail_if("deny" not in answers.values(), "no tool is 'deny': lesson 16's two tiers are the start. Which tools "
            "should never be offered at all? Read what `destructiveHint` says, and what its default is.")
    for name, (notes, right) in PANTRY.items():
        if answers[name] != right:
            raise CheckFailed(f"{name} ({_what(notes)}) got {answers[name]!r}, but {WHY[right]}. Read the tool's "
                              "annotations, not its name.")
    return "each tool in its tier: " + ", ".join(f"{t} {sum(a == t for a in answers.values())}" for t in TIERS)
