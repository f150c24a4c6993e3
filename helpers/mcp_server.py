"""The course's FAQ tools as an MCP server (lesson 16): `search` and the writing tool `add_faq_entry`.

What it does:
- `build_server` returns an `MCPServer` (the official `mcp` SDK) with two tools: lesson 01's FAQ search and
  lesson 09's `add_faq_entry`. Their names, descriptions and parameter descriptions come from the course's own
  definitions (helpers.search.SEARCH_TOOL, lesson 09's docstring and length limits), so a model reads the same
  words whether the tools reach it from the course's loop or over MCP. Both return the compact JSON text that
  helpers.tools.serialize makes, as the course's loop sends it; a refused write is an MCP error result.
  Each tool carries MCP annotations (SEARCH_ANNOTATIONS, ADD_ANNOTATIONS): the search only reads, the write
  adds and never destroys, and neither reaches beyond the FAQ, so a client's approval policy can tell them apart.
- `python -m helpers.mcp_server` serves it over stdio (stdout is the protocol channel: everything else goes to
  stderr through `logging`); `--http PORT` serves it over streamable HTTP at `http://127.0.0.1:PORT/mcp`.
- `stdio_parameters()` says how a client starts it as a subprocess; `running_http_server()` starts it over
  HTTP in a subprocess on a free port for the length of a `with` block (tests); `serve_http()` serves a server
  object over HTTP from a background thread of the calling process (lesson 16: no second Python start-up, so
  the lesson stays quick; the clients can't tell the difference).
- The FAQ comes from the parsed cache in data/ when it is there (a few milliseconds: every server start pays
  it), else from `FAQ_ARCHIVE` or the one-time download, as in every lesson, so it works without a network.

Left out on purpose: resources, prompts, authentication, and persistence. Entries that `add_faq_entry`
writes live in the server's memory and are gone when it stops; a real server would store them for review.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Generator
from typing import Annotated, cast

from mcp import StdioServerParameters
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from minsearch import AppendableIndex, Index
from pydantic import Field

from helpers import ROOT
from helpers.faq.writes import Answer, Question, faq_entry_writer  # lesson 09's writing tool
from helpers.ingest import CACHE_PATH, load_faq_data
from helpers.search import KEYWORD_FIELDS, SEARCH_TOOL, TEXT_FIELDS, search
from helpers.setup.env import setting
from helpers.tools import serialize

SERVER_NAME = "course-faq"
INSTRUCTIONS = "Tools over the LLM Zoomcamp FAQ: search it, and add an entry when a user asks for one."
ADD_DESCRIPTION = ("Add a new entry to the LLM Zoomcamp FAQ. Only use it when the user explicitly asks to "
                   "add an entry.")  # lesson 09's docstring, word for word
QUERY_DESCRIPTION = cast(dict, SEARCH_TOOL["parameters"])["properties"]["query"]["description"]
log = logging.getLogger(__name__)
# What each tool says about itself (MCP tool annotations; hints a client reads, e.g. lesson 13's approval policy).
SEARCH_ANNOTATIONS = ToolAnnotations(title="Search the FAQ", read_only_hint=True, open_world_hint=False)
# An added entry never replaces one, and the same entry twice is refused (lesson 09's duplicate check), so the
# write is additive (not destructive) and idempotent.
ADD_ANNOTATIONS = ToolAnnotations(title="Add a FAQ entry", read_only_hint=False, destructive_hint=False,
                                  idempotent_hint=True, open_world_hint=False)


def build_server(documents: list[dict] | None = None, *, writable: bool = True,
                 name: str = SERVER_NAME) -> MCPServer:
    """An MCP server with the FAQ search (and, when `writable`, add_faq_entry) over `documents`.

    `documents` defaults to the pinned FAQ (`faq_documents()`). The server keeps its own index, so the
    entries one server adds are searchable on it and nowhere else.
    Example:
        >>> import asyncio
        >>> from mcp import Client
        >>> server = build_server([{"id": "a1", "course": "llm-zoomcamp", "section": "General",
        ...                         "question": "Can I join late?", "answer": "Yes."}])
        >>> async def ask():
        ...     async with Client(server) as client:
        ...         tools = await client.list_tools()
        ...         result = await client.call_tool("search", {"query": "join late"})
        ...         return [t.name for t in tools.tools], result.content[0].text
        >>> asyncio.run(ask())
        (['search', 'add_faq_entry'], '[{"id":"a1","course":"llm-zoomcamp","section":"General","question":"Can I join late?","answer":"Yes."}]')
    """
    faq = list(faq_documents() if documents is None else documents)  # the index appends to this list
    index = AppendableIndex(text_fields=TEXT_FIELDS, keyword_fields=KEYWORD_FIELDS).fit(faq)
    # log_level: the SDK configures the root logger if nobody has; WARNING keeps a notebook free of INFO lines.
    server = MCPServer(name, instructions=INSTRUCTIONS, log_level="WARNING")

    def search_faq(query: Annotated[str, Field(description=QUERY_DESCRIPTION)]) -> str:
        return serialize(search(query, index=cast(Index, index)))  # AppendableIndex has Index's search()

    server.add_tool(search_faq, name=str(SEARCH_TOOL["name"]), description=str(SEARCH_TOOL["description"]),
                    annotations=SEARCH_ANNOTATIONS, structured_output=False)
    if writable:
        server.add_tool(_entry_writer(faq, index), name="add_faq_entry", description=ADD_DESCRIPTION,
                        annotations=ADD_ANNOTATIONS, structured_output=False)
    return server


def faq_documents() -> list[dict]:
    """The pinned FAQ, read from the parsed cache in data/ when it is there, else through load_faq_data.

    The cache's name carries the pinned commit and only load_faq_data writes it (from a checked archive or the
    pinned download), so it holds the same documents; reading it skips parsing 1215 markdown files, which
    every server start would otherwise pay. A damaged cache falls back to load_faq_data, which says what to do.
    Example:
        >>> len(faq_documents()) == len(load_faq_data(progress=False))
        True
    """
    try:
        documents = json.loads(CACHE_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        documents = None
    if isinstance(documents, list) and documents and all(isinstance(doc, dict) for doc in documents):
        return documents
    return load_faq_data(progress=False)


def _entry_writer(faq: list[dict], index: AppendableIndex):
    """Lesson 09's add_faq_entry (helpers.faq.writes) over this server's index, its answer as the loop's JSON
    text, a refused write as an MCP error result, and each entry logged."""
    write = faq_entry_writer(index, existing=faq)

    def add_faq_entry(question: Question, answer: Answer) -> str:
        result = write(question, answer)
        if "error" in result:
            # An MCP tool error (is_error), not a normal result: the client can tell the two apart.
            raise ToolError(f"{result['error']}; search for it instead")
        log.info("added FAQ entry %s", result["added"])  # stderr: a person can review what was written
        return serialize(result)

    return add_faq_entry


def stdio_parameters(*, writable: bool = True) -> StdioServerParameters:
    """How an MCP client starts this server as a subprocess and talks to it over stdin/stdout.

    A stdio client passes only a short allow-list of environment variables (PATH, HOME, ...) to the server, so
    FAQ_ARCHIVE is passed on explicitly when it is set; otherwise the server reads `.env` or data/ itself.
    Example:
        >>> params = stdio_parameters()
        >>> params.args
        ['-m', 'helpers.mcp_server']
    """
    env = {"FAQ_ARCHIVE": str(setting("FAQ_ARCHIVE"))} if setting("FAQ_ARCHIVE") else {}
    args = ["-m", "helpers.mcp_server"] + ([] if writable else ["--read-only"])
    return StdioServerParameters(command=sys.executable, args=args, env=env, cwd=str(ROOT))


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now (the OS picks it).

    Example:
        >>> 1024 <= free_port() <= 65535
        True
    """
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def running_http_server(port: int | None = None, *, writable: bool = True,
                        timeout: float = 60.0) -> Generator[str, None, None]:
    """Run this server over streamable HTTP in a subprocess; yield its URL; stop it on leaving the block.

    Example:
        >>> with running_http_server(writable=False) as url:
        ...     url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
        True
    """
    port = port or free_port()
    params = stdio_parameters(writable=writable)
    command = [params.command, *params.args, "--http", str(port)]
    env = {**os.environ, **(params.env or {})}
    process = subprocess.Popen(command, cwd=params.cwd, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for_port(port, process, timeout)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()


class BackgroundHTTPServer:
    """An MCP server object served over streamable HTTP from a background thread of this process, until `close()`.

    The same transport as `python -m helpers.mcp_server --http PORT` (uvicorn serving the SDK's own app on a
    port), without starting a second Python: what a notebook wants. A separate process, as in production, is
    `running_http_server()`. `url` is where clients connect.
    Example:
        >>> from mcp.server import MCPServer
        >>> with BackgroundHTTPServer(MCPServer("empty")) as http:
        ...     http.url.startswith("http://127.0.0.1:") and http.url.endswith("/mcp")
        True
    """

    def __init__(self, server: MCPServer, *, port: int | None = None, timeout: float = 30.0):
        import uvicorn  # the SDK's own HTTP server, installed with mcp; imported only when HTTP is wanted

        self.port, self.timeout = port or free_port(), timeout
        app = server.streamable_http_app(host="127.0.0.1")
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                timeout_graceful_shutdown=2)
        self._uvicorn = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, name="mcp-http", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._uvicorn.started:
            if not self._thread.is_alive():  # uvicorn exits its thread when it can't bind the port
                raise RuntimeError(f"The MCP server could not serve HTTP on port {self.port} (is it in use?).")
            if time.monotonic() > deadline:
                self.close()
                raise TimeoutError(f"The MCP server did not listen on port {self.port} within {timeout:.0f} s.")
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{self.port}/mcp"

    def _serve(self) -> None:
        try:
            self._uvicorn.run()
        except (SystemExit, OSError):  # uvicorn exits on a port it can't bind; __init__ reports that
            pass

    def close(self) -> None:
        """Stop serving (open client sessions end) and wait for the thread; closing twice is fine.

        Example:
            >>> from mcp.server import MCPServer
            >>> http = BackgroundHTTPServer(MCPServer("empty")); http.close(); http.close()
        """
        self._uvicorn.should_exit = True
        self._thread.join(self.timeout)

    def __enter__(self) -> BackgroundHTTPServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return "BackgroundHTTPServer(streamable HTTP, /mcp)"  # no port: it changes from run to run


def _wait_for_port(port: int, process: subprocess.Popen, timeout: float) -> None:
    """Poll until the server accepts connections; a clear error if it died or never came up."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            err = process.stderr.read().decode(errors="replace") if process.stderr else ""
            raise RuntimeError(f"The MCP server stopped before serving (exit code {process.returncode}):\n{err}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(f"The MCP server did not listen on port {port} within {timeout:.0f} s.")


def main(argv: list[str] | None = None) -> None:
    """Serve over stdio (the default) or streamable HTTP (`--http PORT`)."""
    parser = argparse.ArgumentParser(description="The course's FAQ tools as an MCP server.")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on this port")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on with --http")
    parser.add_argument("--read-only", action="store_true", help="serve the search only, no add_faq_entry")
    parser.add_argument("--log-level", default="WARNING", help="INFO also logs each entry written (stderr)")
    args = parser.parse_args(argv)
    # WARNING by default: a stdio server's stderr lands in the client's output (a notebook cell, say).
    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(), format="%(name)s: %(message)s")
    # Over stdio, stdout carries the protocol: anything the FAQ loader prints must go to stderr instead.
    with contextlib.redirect_stdout(sys.stderr):
        server = build_server(writable=not args.read_only)
    log.info("serving %s over %s", SERVER_NAME, f"HTTP port {args.http}" if args.http else "stdio")
    if args.http:
        server.run("streamable-http", host=args.host, port=args.http)
    else:
        server.run("stdio")


if __name__ == "__main__":
    main()
