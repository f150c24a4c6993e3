"""Homework 08, task 8.1 · Two MCP servers, one write behind approval (lessons 13 and 16).

The student writes `answer_with_servers(server_urls, question, client, model, approve) -> str`: connect to every
MCP server in `server_urls` (streamable HTTP), offer the model all their tools, run the calls it makes, and return
its final answer. Two of the servers have a tool with the same name, and each must stay reachable (any unique,
valid function names pass: `ferries__search`, `mcp_ferries_search`, ...). Which calls run is a policy read
from each tool's MCP annotations: a tool that declares itself read-only runs; any other (a write, a destructive
tool, a tool that says nothing) runs only when `approve(server, tool, arguments)` says yes, with the server's own
names for itself and the tool; a refused call does not reach the server, and the model reads that it was refused.

The check serves two made-up servers (a ferry line and a seed library, domains no lesson uses) over streamable
HTTP on 127.0.0.1, each with a `search`, and plays the model with a scripted double: for each of five questions
it calls one tool, found by that tool's description among the tools offered, whatever the student named it,
then answers from the output it gets. So the check judges the student's code, not a model's choice of tool.
Questions: each server's `search`, a read-only tool not called search, a destructive tool that the person
approves, and a tool without annotations that the person refuses.

Left out on purpose: Chat Completions, a pause that outlives the process (lesson 13's saved run; here the person
answers at once), the wording of the refusal, and whether the connections are closed afterwards.
"""

from __future__ import annotations

import re
import warnings

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from helpers.billing.prices import UnknownPriceWarning
from helpers.checks.core import CheckFailed, fail_if, read_field, run_student_code, task_check
from helpers.checks.doubles import plain_data, request_items, scripted_response
from helpers.mcp_server import BackgroundHTTPServer
from helpers.tools import preview

VALID_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
ANSWER = "According to the tool: "  # how the scripted model starts its final answer
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)


class RecordingServer(MCPServer):
    """An MCPServer that records each tool call a client makes (before the SDK validates it).

    Example:
        >>> from helpers.mcp_tools import MCPConnection
        >>> server = RecordingServer("empty")
        >>> with MCPConnection(server) as connection:
        ...     connection.call_tool("nothing", {}).is_error
        True
        >>> server.calls
        [('nothing', {})]
    """

    def __init__(self, name: str, **options):
        super().__init__(name, log_level="WARNING", **options)
        self.calls: list[tuple[str, dict]] = []

    async def call_tool(self, name, arguments, context=None):
        self.calls.append((name, dict(arguments or {})))
        return await super().call_tool(name, arguments, context)


def ferry_server() -> RecordingServer:
    """A made-up ferry line: a read-only `search`, a read-only `port_list`, a destructive `cancel_booking`.

    Example:
        >>> from helpers.mcp_tools import MCPConnection
        >>> with MCPConnection(ferry_server()) as connection:
        ...     [tool.name for tool in connection.list_tools()]
        ['search', 'port_list', 'cancel_booking']
    """
    server = RecordingServer("harbour-ferries")

    @server.tool(description="Search the ferry timetable for the next departures from a port.",
                 annotations=READ_ONLY, structured_output=False)
    def search(query: str) -> str:
        if "brindisi" not in query.lower():
            raise ToolError(f"no departures found for {query!r}")
        return "Next ferry from Brindisi: 14:35 to Corfu, quay 3."

    @server.tool(description="The ports this ferry line serves.", annotations=READ_ONLY, structured_output=False)
    def port_list() -> str:
        return "Brindisi, Corfu, Igoumenitsa, Patras."

    @server.tool(description="Cancel a ferry booking by its reference; the seat is released for good.",
                 annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False),
                 structured_output=False)
    def cancel_booking(reference: str) -> str:
        return f"Booking {reference} is cancelled."

    return server


def seed_server() -> RecordingServer:
    """A made-up seed library: a read-only `search` and `borrow_seeds`, a write that declares nothing.

    Example:
        >>> from helpers.mcp_tools import MCPConnection
        >>> with MCPConnection(seed_server()) as connection:
        ...     [tool.name for tool in connection.list_tools()]
        ['search', 'borrow_seeds']
    """
    server = RecordingServer("seed-library")

    @server.tool(description="Search the seed library's catalogue: how long a plant's seeds take to germinate.",
                 annotations=READ_ONLY, structured_output=False)
    def search(query: str) -> str:
        if "basil" not in query.lower():
            raise ToolError(f"no seeds found for {query!r}")
        return "Basil seeds germinate in 6 to 10 days at 21 °C."

    @server.tool(description="Borrow a packet of seeds from the library for a member (records a loan).",
                 structured_output=False)  # no annotations: by the spec's defaults it may write and destroy
    def borrow_seeds(plant: str, member: str) -> str:
        return f"Loan recorded: {plant} for {member}."

    return server


# (question, server, tool, arguments, what the person answers, a fact of the tool's output or None if refused)
CASES = [
    ("When does the next ferry leave from Brindisi?", "harbour-ferries", "search", {"query": "Brindisi"},
     None, "14:35"),
    ("How many days do basil seeds take to germinate?", "seed-library", "search", {"query": "basil"},
     None, "6 to 10 days"),
    ("Which ports does the ferry line serve?", "harbour-ferries", "port_list", {}, None, "Igoumenitsa"),
    ("Cancel my ferry booking FX-2291.", "harbour-ferries", "cancel_booking", {"reference": "FX-2291"},
     True, "cancelled"),
    ("Borrow a packet of basil seeds for the member Ana Ruiz.", "seed-library", "borrow_seeds",
     {"plant": "basil", "member": "Ana Ruiz"}, False, None),
]


class ToolPickingModel:
    """A scripted Responses API model: it calls the offered tool whose description is `description` with
    `arguments`, whatever the tool is named, then answers ANSWER + the output it got back.

    It records the tools each request offered, and the output its call got. A tool it can't find ends the run
    with a plain answer (the check then says which tool was missing).
    Example:
        >>> model = ToolPickingModel("Add two numbers.", {"a": 1, "b": 2})
        >>> first = model.responses.create(model="m", input="1+2?", tools=[
        ...     {"type": "function", "name": "calc__add", "description": "Add two numbers.", "parameters": {}}])
        >>> call = first.output[0]; call.name
        'calc__add'
        >>> model.responses.create(model="m", input=["1+2?", call.model_dump(), {"type": "function_call_output",
        ...     "call_id": call.call_id, "output": "3"}]).output_text
        'According to the tool: 3'
    """

    def __init__(self, description: str, arguments: dict):
        self.description, self.arguments = description, arguments
        self.offered: list[list[dict]] = []
        self.output: str | None = None
        self.called: str | None = None
        self.responses = self
        self.chat = _NoChat()

    def with_options(self, **options):
        return self

    def create(self, **request):
        tools = [plain_data(tool) for tool in request.get("tools") or []]
        self.offered.append(tools)
        if self.called is None:
            found = [t for t in tools if t.get("description") == self.description]
            if not found:
                return scripted_response(text="I have no tool for that.", n=len(self.offered))
            self.called = str(found[0].get("name"))
            return scripted_response((self.called, self.arguments), n=len(self.offered))
        outputs = [plain_data(item) for item in request_items(request)
                   if read_field(item, "type") == "function_call_output"]
        answered = [item for item in outputs if item.get("call_id") == "call_1_0"]
        if not answered:
            raise CheckFailed(f"the model's call to {self.called} got no function_call_output in the next request; "
                              "the API refuses a history where a call has no output, even a call that did not run.")
        self.output = str(answered[-1].get("output"))
        return scripted_response(text=ANSWER + self.output, n=len(self.offered))


class _NoChat:
    @property
    def completions(self):
        raise CheckFailed("this task runs on the Responses API: call client.responses.create.")


def _check_offered(model: ToolPickingModel, servers: dict[str, RecordingServer], question: str) -> None:
    fail_if(not model.offered, f"on {question!r} your function never called the model.")
    names = [str(tool.get("name")) for tool in model.offered[0]]
    fail_if(len(set(names)) != len(names), f"the model was offered two tools with the same name ({sorted(names)}); "
            "the API refuses that, and the model couldn't say which server it means.")
    bad = [name for name in names if not VALID_NAME.fullmatch(name)]
    fail_if(bool(bad), f"the tool names {bad} are not valid function names (letters, digits, _ and -, at most "
                       "64 characters); the API would refuse the request.")
    fail_if(len(names) < 5, f"the model was offered {len(names)} tools ({sorted(names)}), but the two servers "
            "have five between them. Offer every tool of every server; when two have the same name, the model "
            "must still be able to call each.")


def _check_case(answer_with_servers, urls: list[str], servers: dict[str, RecordingServer], case) -> None:
    question, server_name, tool, arguments, decision, fact = case
    for server in servers.values():
        server.calls.clear()
    listed = {tool.name: tool for tool in _tools_of(servers[server_name])}
    model = ToolPickingModel(str(listed[tool].description), arguments)
    asked: list[tuple] = []

    def approve(server, tool_name, tool_arguments):
        asked.append((server, tool_name, tool_arguments))
        return bool(decision)

    with warnings.catch_warnings():  # the scripted model has no price; a loop that prices calls would warn
        warnings.simplefilter("ignore", UnknownPriceWarning)
        answer = run_student_code(answer_with_servers, list(urls), question, model, "scripted", approve,
                                  what="answer_with_servers")
    _check_offered(model, servers, question)
    fail_if(model.called is None, f"on {question!r} the model found no tool that does what {server_name}'s "
            f"`{tool}` does among those it was offered: each tool keeps its server's description.")
    ran = [args for name, args in servers[server_name].calls if name == tool]
    others = [(name, s) for s, server in servers.items() for name, _ in server.calls if (s, name) != (server_name,
                                                                                                       tool)]
    if others:
        fail_if(True, f"on {question!r} the model called {server_name}'s `{tool}` (as {model.called!r}), but your "
                f"function ran {others[0][0]!r} on {others[0][1]}. Map the name the model calls back to the server "
                "and the tool it stands for.")
    if decision is None:
        fail_if(bool(asked), f"{server_name}'s `{tool}` declares itself read-only, yet your function asked the "
                "person about it. A person asked about every read learns to say yes without looking; let the "
                "tool's annotations decide.")
    else:
        fail_if(not asked, f"{server_name}'s `{tool}` does not declare itself read-only, and your function ran it "
                "without asking the person. Read what each tool says about itself before you run it; a tool "
                "that says nothing may write.")
        fail_if(asked[0][:2] != (server_name, tool), f"approve was asked about {asked[0][:2]}; the person should "
                f"see the server's own name and the tool's name on that server, here {(server_name, tool)}.")
        fail_if(asked[0][2] != arguments, f"approve got the arguments {asked[0][2]!r}, not the call's "
                f"{arguments!r} as a dict: the person approves exactly what will run.")
    if decision is False:
        fail_if(bool(ran), f"the person refused {server_name}'s `{tool}`, and it ran anyway.")
        fail_if(model.output is None, f"after the refusal of `{tool}` the model never heard back; send it an "
                                      "output for that call, saying it was not approved, and let it answer.")
    else:
        fail_if(ran != [arguments], f"on {question!r} {server_name}'s `{tool}` should have run once with "
                f"{arguments}; it ran {len(ran)} times ({preview(str(ran), 80)}).")
        fail_if(fact not in (model.output or ""), f"the model got {preview(model.output or '', 80)!r} as the output "
                f"of `{tool}`, not the text the server returned.")
    fail_if(not isinstance(answer, str) or not answer.startswith(ANSWER), f"on {question!r} your function "
            f"returned {preview(str(answer), 80)!r}; return the model's final answer.")


def _tools_of(server: MCPServer) -> list:
    from helpers.mcp_tools import MCPConnection

    with MCPConnection(server) as connection:
        return connection.list_tools()


@task_check("08-tools-and-agents", "8.1", title="Two MCP servers, one write behind approval")
def check_servers_with_approval(answer_with_servers):
    """Check `answer_with_servers(server_urls, question, client, model, approve) -> str` on two made-up servers.

    Example:
        >>> def answer_with_servers(server_urls, question, client, model, approve):
        ...     raise NotImplementedError
        >>> check_servers_with_approval(answer_with_servers)
        [NOT DONE YET] Task 8.1 · Two MCP servers, one write behind approval: replace `raise NotImplementedError` with your code.
    """
    servers = {"harbour-ferries": ferry_server(), "seed-library": seed_server()}
    with BackgroundHTTPServer(servers["harbour-ferries"]) as ferries, BackgroundHTTPServer(servers["seed-library"]) \
            as seeds:
        for case in CASES:
            _check_case(answer_with_servers, [ferries.url, seeds.url], servers, case)
    return ("both searches reached their own server, reads ran without asking, and each write waited for the "
            "person: approved, it ran once; refused, it never reached the server.")
