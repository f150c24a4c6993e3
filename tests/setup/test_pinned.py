"""helpers.setup.pinned: downloads of single pinned files, checked by sha256, against a local stub server."""

import http.server
import threading
import time
from pathlib import Path

import pytest
import requests

from helpers.setup import pinned
from helpers.setup.pinned import GROUND_TRUTH, OPENAI_SPEC, PinnedFile, PinnedFileError, fetch, sha256_of

GOOD = b"question,course,document\nCan I join?,llm-zoomcamp,74eb249bbf\n"
SHARED = Path(__file__).resolve().parents[3] / "shared"


class StubHandler(http.server.BaseHTTPRequestHandler):
    """Serves /<anything>/good.csv, /<anything>/wrong.csv, /<anything>/slow.csv; 404 for the rest."""

    requests: list[str] = []

    def do_GET(self):  # noqa: N802 (the name http.server calls)
        StubHandler.requests.append(self.path)
        if self.path.endswith("/slow.csv"):
            time.sleep(1.0)
        body = {"good.csv": GOOD, "slow.csv": GOOD, "wrong.csv": GOOD + b"edited upstream\n"}.get(
            self.path.rsplit("/", 1)[-1])
        if body is None:
            self.send_error(404)
            return
        try:
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up waiting (the timeout test): that is the point

    def log_message(self, *args):  # keep test output quiet
        pass


@pytest.fixture(scope="module")
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), StubHandler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)  # a quick shutdown()
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty data/ folder, and the variable blank (so neither the shell nor a .env file can set it)."""
    monkeypatch.setattr(pinned, "CACHE_DIR", tmp_path / "data")
    monkeypatch.setenv("STUB_FILE", "")
    StubHandler.requests.clear()
    return tmp_path / "data"


def stub(server, name="good.csv") -> PinnedFile:
    return PinnedFile(label="stub file", repo="someone/repo", commit="a" * 40, path=f"data/{name}",
                      sha256=sha256_of(GOOD), env_var="STUB_FILE", cache_name="stub.csv", host=server)


def test_download_fills_the_cache_once(server, cache):
    path = fetch(stub(server), progress=False)
    assert path == cache / "stub.csv" and path.read_bytes() == GOOD
    assert StubHandler.requests == [f"/someone/repo/{'a' * 40}/data/good.csv"]
    assert fetch(stub(server), progress=False) == path
    assert len(StubHandler.requests) == 1  # the second call is served by the cache
    assert not list(cache.glob("*.part"))


def test_the_progress_bar_is_labelled_and_counts_the_bytes(server, cache, capsys):
    assert fetch(stub(server), progress=True).read_bytes() == GOOD
    bar = capsys.readouterr().err
    assert "stub file: 100%" in bar and f"{len(GOOD)}.0/{len(GOOD)}.0" in bar


def test_a_changed_file_is_refused_and_names_the_commit(server, cache):
    with pytest.raises(PinnedFileError, match=f"not the pinned stub file.*at commit {'a' * 40}"):
        fetch(stub(server, "wrong.csv"), progress=False)
    assert not cache.exists() or not list(cache.iterdir())


def test_no_network_names_both_fixes(server, cache):
    with pytest.raises(PinnedFileError) as err:
        fetch(stub(server, "missing.csv"), progress=False)
    message = str(err.value)
    assert "connect to the internet" in message and "STUB_FILE=/path/to/that/file" in message
    assert "404" in message


def test_a_hanging_server_times_out(server, cache):
    started = time.monotonic()
    with pytest.raises(PinnedFileError, match="Could not download"):
        fetch(stub(server, "slow.csv"), progress=False, timeout=0.2)
    assert time.monotonic() - started < 1.0


def test_a_local_copy_is_used_and_fills_the_cache(server, cache, tmp_path, monkeypatch):
    copy = tmp_path / "my-copy.csv"
    copy.write_bytes(GOOD)
    monkeypatch.setenv("STUB_FILE", str(copy))
    assert fetch(stub(server), progress=False) == copy
    assert (cache / "stub.csv").read_bytes() == GOOD and StubHandler.requests == []
    monkeypatch.setenv("STUB_FILE", "")
    assert fetch(stub(server), progress=False) == cache / "stub.csv"  # the variable is no longer needed
    assert StubHandler.requests == []


def test_a_wrong_local_copy_is_refused(server, cache, tmp_path, monkeypatch):
    copy = tmp_path / "other.csv"
    copy.write_bytes(b"question,course,document\n")
    monkeypatch.setenv("STUB_FILE", str(copy))
    with pytest.raises(PinnedFileError, match=r"other.csv \(named by STUB_FILE\) is not the pinned stub file"):
        fetch(stub(server), progress=False)
    assert not (cache / "stub.csv").exists()


def test_a_missing_local_copy_says_how_to_fix_it(server, cache, tmp_path, monkeypatch):
    monkeypatch.setenv("STUB_FILE", str(tmp_path / "nowhere.csv"))
    with pytest.raises(PinnedFileError, match="not a file.*unset STUB_FILE"):
        fetch(stub(server), progress=False)


def test_a_damaged_cache_says_delete_it(server, cache):
    cache.mkdir()
    (cache / "stub.csv").write_bytes(GOOD[:10])
    with pytest.raises(PinnedFileError, match="damaged.*Delete it"):
        fetch(stub(server), progress=False)
    assert StubHandler.requests == []


def test_an_interrupted_download_leaves_nothing(server, cache, monkeypatch):
    class HalfAnswer:  # the first chunk arrives, then the student presses stop
        headers = {"content-length": str(len(GOOD))}

        def raise_for_status(self):
            pass

        def iter_content(self, chunk_size):
            yield GOOD[:5]
            raise KeyboardInterrupt

    monkeypatch.setattr(requests, "get", lambda url, **kwargs: HalfAnswer())  # what pooch's downloader calls
    with pytest.raises(KeyboardInterrupt):
        fetch(stub(server), progress=False)
    assert list(cache.iterdir()) == []


def test_an_interrupted_copy_into_the_cache_leaves_nothing(server, cache, tmp_path, monkeypatch):
    copy = tmp_path / "my-copy.csv"
    copy.write_bytes(GOOD)
    monkeypatch.setenv("STUB_FILE", str(copy))

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(pinned.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        fetch(stub(server), progress=False)
    assert list(cache.iterdir()) == []


def test_a_cache_folder_that_cannot_be_made_says_what_to_do(server, cache, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setattr(pinned, "CACHE_DIR", blocker / "data")
    with pytest.raises(PinnedFileError, match=r"Could not save the stub file .* writable, or download .* STUB_FILE="):
        fetch(stub(server), progress=False)


def test_the_course_files_point_at_raw_files_of_their_commits():
    assert GROUND_TRUTH.url == ("https://raw.githubusercontent.com/DataTalksClub/llm-zoomcamp/"
                                "c85fa440791efd6c902f7f30ccedaae4483e3f9e/04-evaluation/data/ground-truth-data.csv")
    assert OPENAI_SPEC.url == ("https://raw.githubusercontent.com/openai/openai-openapi/"
                               "f85dbe223d40e1a31cba812ab2d755c7e98a92a3/openapi.yaml")
    assert (GROUND_TRUTH.env_var, OPENAI_SPEC.env_var) == ("GROUND_TRUTH_CSV", "OPENAI_SPEC")


@pytest.mark.parametrize("file, copy", [(GROUND_TRUTH, "data/ground-truth-llm-zoomcamp.csv"),
                                        (OPENAI_SPEC, "spec/openai-openapi.yaml")])
def test_the_pinned_hashes_match_the_shared_copies(file, copy):
    path = SHARED / copy
    if not path.is_file():
        pytest.skip(f"No copy of the {file.label} at {path}: put one there (or in {file.cache_path}) to check "
                    f"the pinned hash.")
    assert sha256_of(path.read_bytes()) == file.sha256
