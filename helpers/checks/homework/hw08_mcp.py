"""Homework 08, task 8.1 · An MCP tool for your agent (lesson 16).

The student writes `answer_with_mcp(server_url, question, client, model)`: connect to the MCP server at
`server_url` (streamable HTTP), give its tools to an agent (their own loop, the course's `agent_loop`, or, as
`async def`, a framework agent), run it on `question` and return the agent's final answer as text.

The check serves two made-up MCP servers of its own (a ferry timetable and a seed library, domains no lesson
uses) over streamable HTTP from a background thread, and asks one question of each. It passes when, for both,
the agent listed the server's tools, the server's tool ran with the question's argument, and the answer
returned is the model's (not the tool's raw output) and carries the fact only that tool knows. Two servers,
so that code written for one (a tool name, an answer) fails on the other. A plain function gets a sync offline
client, an `async def` an async one, so either kind of agent can be checked; on a real model the same criteria
hold.

Left out on purpose: whether the connection is closed afterwards (the server can't tell a closed session from
an idle one in time), the wording of the answer, and stdio (the same client code, another transport).
"""

from __future__ import annotations

import inspect

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from helpers.checks.core import fail_if, run_async, run_student_code, task_check
from helpers.mcp_server import BackgroundHTTPServer


class RecordingServer(MCPServer):
    """An MCPServer that records what a client did: how often it listed the tools, and each tool call.

    Example:
        >>> from helpers.mcp_tools import MCPConnection
        >>> server = RecordingServer("empty")
        >>> with MCPConnection(server) as connection:
        ...     connection.list_tools()
        []
        >>> server.listed, server.calls
        (1, [])
    """

    def __init__(self, name: str, **options):
        super().__init__(name, log_level="WARNING", **options)
        self.listed = 0
        self.calls: list[tuple[str, dict]] = []

    async def list_tools(self):
        self.listed += 1
        return await super().list_tools()

    async def call_tool(self, name, arguments, context=None):
        # Recorded before the SDK validates the arguments: a call with missing ones is recorded too.
        self.calls.append((name, dict(arguments or {})))
        return await super().call_tool(name, arguments, context)


def _lookup(table: dict[str, str], asked: str, missing: str) -> str:
    """The value of the first key of `table` found in `asked` (forgiving: any wording around the key);
    a ToolError (an MCP error result) saying `missing` when none is."""
    known = [key for key in table if key in asked.lower()]
    if not known:
        raise ToolError(missing)
    return table[known[0]]


def ferry_server() -> tuple[RecordingServer, dict]:
    """A made-up ferry timetable: (server, what the check asks of it).

    Example:
        >>> server, case = ferry_server()
        >>> case["tool"], case["argument"]
        ('next_ferry', 'Brindisi')
    """
    server = RecordingServer("harbour-ferries")
    departures = {"brindisi": "Next ferry from Brindisi: 14:35 to Corfu, quay 3 (boarding closes 14:05)."}

    @server.tool(description="The next ferry departure from a port: time, destination and quay.",
                 structured_output=False)
    def next_ferry(port: str) -> str:
        return _lookup(departures, port, f"no timetable for the port {port!r}")  # "port of Brindisi" works

    @server.tool(description="The fare of a ferry route between two ports, in euros.", structured_output=False)
    def ferry_fare(origin: str, destination: str) -> str:
        return f"{origin} to {destination}: 38 euros."

    return server, {"question": "When does the next ferry leave from Brindisi?", "tool": "next_ferry",
                    "argument": "Brindisi", "fact": "14:35", "output": departures["brindisi"]}


def seed_server() -> tuple[RecordingServer, dict]:
    """A made-up seed library: (server, what the check asks of it).

    Example:
        >>> server, case = seed_server()
        >>> case["tool"], case["argument"]
        ('germination_time', 'basil')
    """
    server = RecordingServer("seed-library")
    days = {"basil": "Basil seeds germinate in 6 to 10 days at 21 °C; keep the soil moist."}

    @server.tool(description="How long the seeds of a plant take to germinate, and at what temperature.",
                 structured_output=False)
    def germination_time(plant: str) -> str:
        return _lookup(days, plant, f"no seeds of {plant!r} in the library")  # "basil seeds" works

    @server.tool(description="Borrow a packet of seeds from the library (writes a loan record).",
                 structured_output=False)
    def borrow_seeds(plant: str, member: str) -> str:
        return f"Loan recorded: {plant} for {member}."

    return server, {"question": "How many days do basil seeds take to germinate?", "tool": "germination_time",
                    "argument": "basil", "fact": "6 to 10 days", "output": days["basil"]}


def _ask(answer_with_mcp, url: str, question: str):
    """Run the student's function on the offline model: a sync client for a plain function, async for async."""
    from helpers.offline import OFFLINE_MODEL

    if inspect.iscoroutinefunction(answer_with_mcp):
        from helpers.llm import async_offline_client

        async_client = async_offline_client()
        # The notebook's own loop is running: the coroutine runs to the end on a fresh loop in a worker thread.
        return run_student_code(lambda: run_async(lambda: answer_with_mcp(url, question, async_client,
                                                                          OFFLINE_MODEL)), what="answer_with_mcp")
    from helpers.offline import neutral_client

    return run_student_code(answer_with_mcp, url, question, neutral_client(), OFFLINE_MODEL, what="answer_with_mcp")


def _check_one(answer_with_mcp, server: RecordingServer, case: dict, which: str) -> None:
    with BackgroundHTTPServer(server) as http:
        answer = _ask(answer_with_mcp, http.url, case["question"])
    if inspect.iscoroutine(answer):  # a plain function that returned a coroutine: it forgot an await
        answer.close()
        fail_if(True, "answer_with_mcp returned a coroutine: `await` the framework's run, or write the function "
                      "as `async def`.")
    fail_if(not isinstance(answer, str), f"answer_with_mcp returned a {type(answer).__name__} for {which}; return "
                                         "the agent's final answer as text.")
    fail_if(server.listed == 0, f"{which}: your function never asked the server at `server_url` for its tools. "
                                "Connect to that URL (not another server), list its tools, and give them to "
                                "the agent.")
    wanted = [arguments for name, arguments in server.calls if name == case["tool"]]
    fail_if(not wanted, f"{which}: the model was never able to call the server's tool that answers the question. "
                        "Check that the tools the agent gets are the ones the server listed, each with its own "
                        "name and description, and that the agent runs the calls the model makes.")
    fail_if(not any(case["argument"].lower() in str(value).lower() for arguments in wanted
                    for value in arguments.values()),
            f"{which}: the server's tool ran without the argument the question gives. The model fills in only "
            "the parameters it sees: pass each tool's input schema, unchanged, as its parameters.")
    fail_if(answer.strip() == case["output"], f"{which}: you returned the tool's output itself. Send it back to "
                                              "the model and return the answer it writes from it.")
    fail_if(case["fact"] not in answer, f"{which}: the answer does not use what the tool returned. Make sure the "
                                        "tool's output goes back to the model, and return its final answer.")


@task_check("08-tools-and-agents", "8.1", title="An MCP tool for your agent")
def check_mcp_agent(answer_with_mcp):
    """Check `answer_with_mcp(server_url, question, client, model) -> str` against two made-up MCP servers.

    Example:
        >>> def answer_with_mcp(server_url, question, client, model):
        ...     raise NotImplementedError
        >>> check_mcp_agent(answer_with_mcp)
        [NOT DONE YET] Task 8.1 · An MCP tool for your agent: replace `raise NotImplementedError` with your code.
    """
    for which, make in (("the ferry server", ferry_server), ("the seed server", seed_server)):
        server, case = make()
        _check_one(answer_with_mcp, server, case, which)
    return "your agent answered through the tools of two MCP servers it had never seen."
