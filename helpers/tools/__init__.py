"""Tools the model can call: run its calls (lesson 04) and describe typed functions as tools (lesson 09).

The package has two modules, and exports the names the lessons import from `helpers.tools`:
- dispatch: `make_call`, `make_chat_call` and `run_tool` run one function call and never raise for what the
  model sent (failures come back as a `ToolError` payload); `serialize` and `preview` turn results into text;
- registry: the `@tool` decorator, `Tool`, the `Tools` registry and `ToolDefinitionError`, built on dispatch.

Dispatch never imports the registry: it asks a tool for `validate` and `parameters` (`SelfCheckingTool`), so
the arrows point one way, registry -> dispatch. Left out: everything the two modules leave out.
"""

from helpers.tools.dispatch import (
    SelfCheckingTool,
    ToolError,
    make_call,
    make_chat_call,
    preview,
    run_tool,
    serialize,
)
from helpers.tools.registry import Tool, ToolDefinitionError, Tools, tool

__all__ = [
    "SelfCheckingTool", "Tool", "ToolDefinitionError", "ToolError", "Tools", "make_call", "make_chat_call",
    "preview", "run_tool", "serialize", "tool",
]
