"""Stored responses: `store`, `previous_response_id`, and GET / DELETE `/responses/{id}` (with `/input_items`).

What it does, as the Responses API does:
- a response is stored unless the request says `"store": false`, with its input items: the whole input the
  model read, including what came from a previous response or a conversation;
- `previous_response_id` continues from a stored response: its input items and output items come first, then
  the new `input`. Its `instructions` are not carried over (send them again: each request has its own). A
  missing response is the real 400 `previous_response_not_found`; together with `conversation` it is a 400 too;
- the model reads the whole chain, so `usage.input_tokens` counts it all again on every turn: server-side state
  saves sending the history, not paying for it (the prompt cache, which sees the same prefix, still applies);
- `GET /responses/{id}` returns the stored response, `GET /responses/{id}/input_items` lists its input items
  (newest first unless `order=asc`, paged by `limit` and `after`), `DELETE /responses/{id}` forgets it.

`continue_request(request, state)` (before the rules) builds the input the model reads; `remember(...)` (after)
stores the response and adds the turn to its conversation (conversations.py); `serve_response(...)` answers the
`/responses/{id}` routes.

What it leaves out on purpose: time (nothing expires after 30 days: the store forgets the oldest response
once it holds CAPACITY of them, so a long benchmark can't fill the memory), `background` responses and
`/cancel` (every answer is ready at once), and `include`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from helpers.offline.api.body import shown
from helpers.offline.api.errors import ApiError
from helpers.offline.api.items import item_id, page, stored_items

CAPACITY = 1024  # responses kept per client or server, the oldest forgotten first: a 320-question benchmark
# stores every response by default, and each holds its whole input (a few KB to tens of KB)


class ResponseStore:
    """The responses one client (or server) stored, with their input items, oldest first. Thread-safe.

    Example:
        >>> store = ResponseStore()
        >>> store.put({"id": "resp_1", "output": []}, [])
        >>> store.get("resp_1")[0]["id"], store.delete("resp_1"), store.delete("resp_1")
        ('resp_1', True, False)
    """

    def __init__(self, capacity: int = CAPACITY):
        self.capacity = capacity
        self._kept: OrderedDict[str, tuple[dict, list[dict]]] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, response: dict, input_items: list[dict]) -> None:
        """Keep a response and the input items it was made from.

        Example:
            >>> ResponseStore().put({"id": "resp_1"}, [])
        """
        with self._lock:
            self._kept[response["id"]] = (response, input_items)
            self._kept.move_to_end(response["id"])
            while len(self._kept) > self.capacity:
                self._kept.popitem(last=False)

    def get(self, response_id: str) -> tuple[dict, list[dict]] | None:
        """(response, input items), or None when it was never stored (or was deleted).

        Example:
            >>> ResponseStore().get("resp_x") is None
            True
        """
        with self._lock:
            return self._kept.get(response_id)

    def delete(self, response_id: str) -> bool:
        """Forget a response; whether it was there.

        Example:
            >>> ResponseStore().delete("resp_x")
            False
        """
        with self._lock:
            return self._kept.pop(response_id, None) is not None


def conversation_id(request: dict) -> str | None:
    """The id a request's `conversation` names (a string, or an object with an `id`), or None; a 400 for
    another shape.

    Example:
        >>> conversation_id({"conversation": {"id": "conv_1"}}), conversation_id({})
        ('conv_1', None)
    """
    given = request.get("conversation")
    if given is None:
        return None
    found = given.get("id") if isinstance(given, dict) else given
    if not isinstance(found, str) or not found:
        raise ApiError(400, f"Invalid 'conversation': expected a conversation id (a string like 'conv_...') or an "
                            f"object {{'id': 'conv_...'}}, but got {shown(given)} instead.", param="conversation",
                       code="invalid_value")
    return found


def continue_request(request: dict, state, seed: str) -> tuple[dict, str]:
    """(the request the model reads, the seed of its ids). Its `input` is made of stored items: those of the
    previous response (`previous_response_id`) or of the conversation (`conversation`, normalised to
    {"id": ...}), then the request's own, whose ids come from the seed. The seed is the request's hash,
    or for a conversation a hash of it and how many items the conversation has had (the same request to a
    longer conversation is a new response). The request's shape must have been checked
    (shapes.check_responses). `state` is a state.ServerState.

    Example:
        >>> from helpers.offline.api.state import ServerState
        >>> body, seed = continue_request({"model": "m", "input": "Hi"}, ServerState(), "s1")
        >>> body["input"][0]["role"], body["input"][0]["content"], seed
        ('user', [{'type': 'input_text', 'text': 'Hi'}], 's1')
    """
    previous, conversation = request.get("previous_response_id"), conversation_id(request)
    truncation = request.get("truncation")
    if truncation not in (None, "auto", "disabled"):
        raise ApiError(400, f"Invalid value: {shown(truncation)}. Supported values are: 'auto' and 'disabled'.",
                       param="truncation", code="invalid_value")
    if previous and conversation:
        raise ApiError(400, "Mutually exclusive parameters: Ensure you are only providing one of: "
                            "'previous_response_id' or 'conversation'.", param=None,
                       code="mutually_exclusive_parameters")
    earlier: list[dict] = []
    if previous:
        stored = state.responses.get(previous)
        if stored is None:
            raise ApiError(400, f"Previous response with id '{previous}' not found.", param="previous_response_id",
                           code="previous_response_not_found")
        response, input_items = stored
        earlier = [*input_items, *response["output"]]
    elif conversation:
        chat = state.conversations.get(conversation)
        earlier = chat.items_now()
        seed = item_id("seed", seed, conversation, chat.added)[len("seed_"):]
    new = stored_items(request["input"], seed)
    known = {item["id"] for item in earlier}
    for index, item in enumerate(new):
        if item["id"] in known:  # the real API refuses an item it already holds (a re-sent output item)
            raise ApiError(400, f"Duplicate item found with id {item['id']}. Remove duplicate items from your "
                                f"input and try again.", param=f"input[{index}]", code="duplicate_item")
    body = {**request, "input": [*earlier, *new]}
    if conversation:
        body["conversation"] = {"id": conversation}
    return body, seed


def remember(state, request: dict, body: dict, response: dict) -> None:
    """After a response: store it with the input it was made from (`body`'s, from continue_request), unless
    the request says `"store": false`; and add the turn (the request's own input items, then the output) to
    its conversation, if it has one.

    Example:
        >>> from helpers.offline.api.state import ServerState
        >>> state = ServerState()
        >>> remember(state, {"input": []}, {"input": []}, {"id": "resp_1", "output": []})
        >>> state.responses.get("resp_1") is not None
        True
    """
    if request.get("store") is not False:
        state.responses.put(response, body["input"])
    if body.get("conversation"):
        own = 1 if isinstance(request["input"], str) else len(request["input"])
        turn = [*body["input"][len(body["input"]) - own:], *response["output"]]
        state.conversations.get(body["conversation"]["id"]).add(turn)


def serve_response(method: str, route: str, query: str, state) -> dict:
    """Answer GET / DELETE `/responses/{id}` and GET `/responses/{id}/input_items` (`route` without /v1).

    Example:
        >>> from helpers.offline.api.state import ServerState
        >>> serve_response("GET", "/responses/resp_x", "", ServerState())
        Traceback (most recent call last):
        helpers.offline.api.errors.ApiError: Response with id 'resp_x' not found.
    """
    parts = route.split("/")[2:]  # "", "responses", id[, "input_items"]
    listing = len(parts) == 2 and parts[1] == "input_items"
    if not parts[0] or len(parts) > 2 or (len(parts) == 2 and not listing):
        raise ApiError(404, f"Invalid URL ({method} {route}).")
    allowed = "GET" if listing else "GET, DELETE"
    if method not in allowed.split(", "):
        raise ApiError(405, f"Invalid method for URL ({method} {route}): use {allowed}.",
                       headers={"allow": allowed})
    stored = state.responses.get(parts[0])
    if stored is None:
        raise ApiError(404, f"Response with id '{parts[0]}' not found.")
    if method == "DELETE":
        state.responses.delete(parts[0])
        return {"id": parts[0], "object": "response", "deleted": True}
    return page(stored[1], query) if listing else stored[0]
