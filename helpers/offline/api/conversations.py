"""The Conversations API: a conversation kept on the server, its items read and written by id.

Routes (the /v1 prefix is optional), as on OpenAI, and as the openai SDK's `client.conversations` calls them:
- `POST /conversations` with optional `items` (at most 20) and `metadata` -> the conversation object;
- `GET`, `POST` (new `metadata`) and `DELETE /conversations/{id}`;
- `GET /conversations/{id}/items` (newest first unless `order=asc`; `limit`, `after`), `POST` (add up to 20
  `items`; answers the list of the added ones), `GET` and `DELETE /conversations/{id}/items/{item_id}` (the
  delete answers the conversation).

A response request naming a `conversation` reads its items before its own input, and its input and output
items are added to it afterwards (stored.py): so a chat can continue from any client of the same server.

Ids are made from the store's counters and the content (items.item_id): the first conversation of every
fresh client has the same id, so stored notebook outputs do not change between runs. `created_at` is the
same fixed time as every response's (wire.CREATED_AT).

What it leaves out on purpose: expiry (a real conversation lives until deleted; here also until the client
or server goes away), `include`, and item types other than messages, function calls and their outputs,
and reasoning (the offline model reads no others).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from helpers.offline.api.body import load_request, shown
from helpers.offline.api.errors import ApiError
from helpers.offline.api.items import PREFIXES, item_id, page, stored_item
from helpers.offline.api.shapes import check_conversation_body
from helpers.offline.api.wire import CREATED_AT

READABLE = ("message", "function_call", "function_call_output", "reasoning")


@dataclass
class Conversation:
    """One conversation: its id, metadata and items (oldest first). `added` counts every item ever added, so
    a new item's id never repeats a deleted one's.

    Example:
        >>> chat = Conversation("conv_1")
        >>> chat.add([{"id": "msg_1", "type": "message"}])
        >>> [item["id"] for item in chat.items_now()]
        ['msg_1']
    """

    id: str
    metadata: dict = field(default_factory=dict)
    items: list[dict] = field(default_factory=list)
    added: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, items: list[dict]) -> None:
        """Append items already in stored form (items.stored_item).

        Example:
            >>> Conversation("conv_1").add([])
        """
        with self.lock:
            self.items.extend(items)
            self.added += len(items)

    def items_now(self) -> list[dict]:
        """A copy of the items as they are now.

        Example:
            >>> Conversation("conv_1").items_now()
            []
        """
        with self.lock:
            return list(self.items)

    def new_items(self, raw: list[dict]) -> list[dict]:
        """Items from a request (shape checked) in stored form, with ids from this conversation's counter.

        Example:
            >>> Conversation("conv_1").new_items([{"role": "user", "content": "Hi"}])[0]["id"][:4]
            'msg_'
        """
        for index, item in enumerate(raw):
            kind = item.get("type") or "message"
            if kind not in READABLE:
                raise ApiError(400, f"The offline model does not support items of type {shown(kind)} "
                                    f"(items[{index}]). Use messages, function_call and function_call_output.",
                               param=f"items[{index}].type", code="unsupported_value")
        with self.lock:
            start = self.added
        return [stored_item({k: v for k, v in item.items() if k != "id"},
                            item_id(PREFIXES[item.get("type") or "message"], self.id, start + i))
                for i, item in enumerate(raw)]

    def resource(self) -> dict:
        """The conversation object the API answers.

        Example:
            >>> Conversation("conv_1", {"topic": "tides"}).resource()["metadata"]
            {'topic': 'tides'}
        """
        return {"id": self.id, "object": "conversation", "created_at": CREATED_AT, "metadata": dict(self.metadata)}


class ConversationStore:
    """The conversations of one client (or one server). Thread-safe.

    Example:
        >>> store = ConversationStore()
        >>> chat = store.create([], {})
        >>> store.get(chat.id) is chat
        True
    """

    def __init__(self):
        self._all: dict[str, Conversation] = {}
        self._made = 0
        self._lock = threading.Lock()

    def create(self, items: list[dict], metadata: dict) -> Conversation:
        """A new conversation holding `items` (shape checked), with an id from the store's counter.

        Example:
            >>> ConversationStore().create([], {}).id[:5]
            'conv_'
        """
        with self._lock:
            self._made += 1
            chat = Conversation(item_id("conv", "conversation", self._made), dict(metadata))
            self._all[chat.id] = chat
        chat.add(chat.new_items(items))
        return chat

    def get(self, conversation_id: str) -> Conversation:
        """The conversation, or the 404 the API answers for an unknown id.

        Example:
            >>> ConversationStore().get("conv_x")
            Traceback (most recent call last):
            helpers.offline.api.errors.ApiError: Conversation with id 'conv_x' not found.
        """
        with self._lock:
            chat = self._all.get(conversation_id)
        if chat is None:
            raise ApiError(404, f"Conversation with id '{conversation_id}' not found.", param=None,
                           code="conversation_not_found")
        return chat

    def delete(self, conversation_id: str) -> None:
        """Forget a conversation (a 404 if there is none).

        Example:
            >>> store = ConversationStore()
            >>> store.delete(store.create([], {}).id)
        """
        self.get(conversation_id)
        with self._lock:
            self._all.pop(conversation_id, None)


def serve_conversation(method: str, route: str, query: str, body: bytes, store: ConversationStore) -> dict:
    """Answer a /conversations route (`route` without /v1 and the query string; HEAD already made GET).

    Example:
        >>> created = serve_conversation("POST", "/conversations", "", b'{"metadata": {"topic": "tides"}}',
        ...                              ConversationStore())
        >>> created["object"], created["metadata"]
        ('conversation', {'topic': 'tides'})
    """
    parts = route.split("/")[2:]  # after "", "conversations"
    shape = ("root" if not parts else "one" if len(parts) == 1 else
             "items" if len(parts) == 2 and parts[1] == "items" else
             "item" if len(parts) == 3 and parts[1] == "items" and parts[2] else None)
    if shape is None or (parts and not parts[0]):
        raise ApiError(404, f"Invalid URL ({method} {route}).")
    allowed = {"root": "POST", "one": "GET, POST, DELETE", "items": "GET, POST", "item": "GET, DELETE"}[shape]
    if method not in allowed.split(", "):
        raise ApiError(405, f"Invalid method for URL ({method} {route}): use {allowed}.", headers={"allow": allowed})
    request = load_request(body) if method == "POST" else {}
    if method == "POST":
        check_conversation_body(request, items_required=shape == "items", metadata_required=shape == "one")
    if shape == "root":
        return store.create(request.get("items") or [], request.get("metadata") or {}).resource()
    chat = store.get(parts[0])
    if shape == "one":
        if method == "DELETE":
            store.delete(chat.id)
            return {"id": chat.id, "object": "conversation.deleted", "deleted": True}
        if method == "POST":
            chat.metadata = dict(request["metadata"])
        return chat.resource()
    if shape == "items":
        if method == "GET":
            return page(chat.items_now(), query)
        added = chat.new_items(request["items"])
        chat.add(added)
        return {"object": "list", "data": added, "first_id": added[0]["id"] if added else None,
                "last_id": added[-1]["id"] if added else None, "has_more": False}
    with chat.lock:
        found = next((item for item in chat.items if item["id"] == parts[2]), None)
        if found is None:
            raise ApiError(404, f"Item with id '{parts[2]}' not found.", param=None, code="item_not_found")
        if method == "DELETE":
            chat.items.remove(found)
    return chat.resource() if method == "DELETE" else found
