"""Serve one shape (model_shapes.SHAPES) over HTTP on 127.0.0.1, as a real OpenAI-compatible server is served.

    python tests/shapes/serve.py reasoning --port 8800
    LLM_PROVIDER=openai OPENAI_BASE_URL=http://127.0.0.1:8800/v1 make lab   # lessons on that shape, by hand

`ShapeServer(shape)` is the same in a background thread, as a context manager (the runner and the tests use it).
Each request is answered whole (model_shapes.ShapedModel), then written with its length: a streamed request's
events arrive together, which the SDK reads as it reads any server-sent events.

What it leaves out on purpose: TLS, keep-alive tuning and request logs (a test double on localhost needs none).
"""

from __future__ import annotations

import argparse
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # model_shapes beside this file, run as a script too

from model_shapes import SHAPES, ShapedModel  # noqa: E402

from helpers.offline.api.server import STOP_POLL_SECONDS  # noqa: E402  (why: its comment; each test waited 0.5 s)


def _vocabulary():
    # What make_client hands the in-process offline model: the FAQ's words (helpers.llm._course_knowledge).
    from helpers.faq.vocabulary import faq_vocabulary

    return faq_vocabulary()


def make_server(shape: str, port: int = 0, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    model = ShapedModel(SHAPES[shape], vocabulary=_vocabulary())

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            status, headers, content = model.answer(self.command, self.path, dict(self.headers), body)
            self.send_response(status)
            for key, value in headers.items():
                if key.lower() != "content-length":
                    self.send_header(key, value)
            self.send_header("content-length", str(len(content)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(content)

        do_GET = do_POST = do_DELETE = do_HEAD = _serve

        def log_message(self, format, *args):  # noqa: A002 -- the base class's name
            pass

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    return server


class ShapeServer:
    """One shape served in a background thread; `base_url` is what OPENAI_BASE_URL is set to.

    Example:
        >>> from openai import OpenAI
        >>> with ShapeServer("reasoning") as srv:
        ...     OpenAI(base_url=srv.base_url, api_key="x").responses.create(model="m", input="Hi").output[0].type
        'reasoning'
    """

    def __init__(self, shape: str):
        self.shape = SHAPES[shape]
        self.server = make_server(shape)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(STOP_POLL_SECONDS,), daemon=True)

    def env(self) -> dict[str, str]:
        """The variables a kernel needs to reach this shape through make_client."""
        return {"LLM_PROVIDER": self.shape.preset, "OPENAI_BASE_URL": self.base_url, "LLM_MODEL": "",
                "LLM_RECORD": ""}

    def __enter__(self) -> ShapeServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the offline model in one of the shapes of real models.")
    parser.add_argument("shape", choices=sorted(SHAPES))
    parser.add_argument("--port", type=int, default=8800)
    args = parser.parse_args(argv)
    server = make_server(args.shape, args.port)
    print(f"{args.shape} shape on http://127.0.0.1:{server.server_address[1]}/v1: set "
          f"LLM_PROVIDER={SHAPES[args.shape].preset} and OPENAI_BASE_URL to it. Ctrl+C stops.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
