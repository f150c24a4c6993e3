"""Ingest: counts, order and fields of the pinned snapshot, and every error path."""

import json
import urllib.error
from collections import Counter

import pytest
from conftest import TINY_FAQ, make_faq_zip, question_file

from helpers import ingest
from helpers.ingest import FaqDataError, load_faq_data, parse_archive


@pytest.fixture(scope="module")
def faq():
    return load_faq_data()


def test_pinned_snapshot_counts(faq):
    assert len(faq) == 1215
    assert Counter(d["course"] for d in faq) == {
        "data-engineering-zoomcamp": 449, "machine-learning-zoomcamp": 427,
        "mlops-zoomcamp": 248, "llm-zoomcamp": 91,
    }


def test_fields_and_ids(faq):
    assert all(set(d) == {"id", "course", "section", "question", "answer"} for d in faq)
    assert all(isinstance(v, str) for d in faq for v in d.values())
    assert len({d["id"] for d in faq}) > 1200  # ids are (almost) unique; a few FAQ entries are duplicated upstream
    assert all(d["question"] for d in faq)


def test_sections_use_display_names_in_metadata_order(faq):
    llm = [d for d in faq if d["course"] == "llm-zoomcamp"]
    assert llm[0]["section"] == "General Course-Related Questions"
    assert llm[0]["question"] == "I just discovered the course. Can I still join?"
    sections = list(dict.fromkeys(d["section"] for d in llm))
    assert sections[:3] == ["General Course-Related Questions", "Module 1: Introduction", "Module 2: Vector Search"]


def test_courses_are_grouped_in_alphabetical_order(faq):
    courses = list(dict.fromkeys(d["course"] for d in faq))
    assert courses == sorted(courses)


def test_order_is_course_then_metadata_section_then_sort_order(tiny_archive):
    docs = parse_archive(tiny_archive)
    assert [d["id"] for d in docs] == ["bbbbbbbbb1", "aaaaaaaaa2", "aaaaaaaaa3", "aaaaaaaaa1"]
    assert docs[1] == {"id": "aaaaaaaaa2", "course": "beta-course", "section": "Introduction",
                       "question": "What is it?", "answer": "A course."}


def test_faq_archive_env_var_is_used(tiny_archive, monkeypatch):
    monkeypatch.setenv("FAQ_ARCHIVE", str(tiny_archive))
    assert len(load_faq_data()) == 4


def test_missing_archive_path_says_what_to_do(tmp_path):
    with pytest.raises(FaqDataError, match="not a file.*unset FAQ_ARCHIVE"):
        parse_archive(tmp_path / "nope.zip")


def test_truncated_archive_names_the_file(tmp_path):
    data = make_faq_zip(TINY_FAQ)
    path = tmp_path / "cut.zip"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(FaqDataError, match="cut.zip.*truncated or corrupt"):
        parse_archive(path)


def test_corrupt_member_is_reported(tmp_path):
    data = bytearray(make_faq_zip(TINY_FAQ))
    start = data.find(b"Yes, you can join")  # flip bytes inside a stored member: its CRC no longer matches
    data[start:start + 3] = b"XXX"
    path = tmp_path / "bad.zip"
    path.write_bytes(bytes(data))
    with pytest.raises(FaqDataError, match="bad.zip"):
        parse_archive(path)


def test_malformed_front_matter_names_the_file(tmp_path):
    files = dict(TINY_FAQ)
    files["_questions/beta-course/intro/003_ccccccccc1_broken.md"] = "---\nid: [unclosed\nquestion: x\n---\nbody"
    path = tmp_path / "f.zip"
    path.write_bytes(make_faq_zip(files))
    with pytest.raises(FaqDataError, match="Malformed front matter in .*003_ccccccccc1_broken.md"):
        parse_archive(path)


def test_missing_front_matter_keys_name_the_file(tmp_path):
    files = dict(TINY_FAQ)
    files["_questions/beta-course/intro/004_ddddddddd1_nokeys.md"] = "---\nid: ddddddddd1\n---\nbody"
    path = tmp_path / "f.zip"
    path.write_bytes(make_faq_zip(files))
    with pytest.raises(FaqDataError, match="004_ddddddddd1_nokeys.md: missing question, sort_order"):
        parse_archive(path)


def test_bad_sort_order_names_the_file(tmp_path):
    files = dict(TINY_FAQ)
    files["_questions/beta-course/intro/005_eeeeeeeee1_x.md"] = question_file("eeeeeeeee1", "Q?", "soon", "A")
    path = tmp_path / "f.zip"
    path.write_bytes(make_faq_zip(files))
    with pytest.raises(FaqDataError, match="005_eeeeeeeee1_x.md: sort_order 'soon'"):
        parse_archive(path)


def test_zip_without_questions_is_rejected(tmp_path):
    path = tmp_path / "other.zip"
    path.write_bytes(make_faq_zip({"README.md": "hello"}))
    with pytest.raises(FaqDataError, match="holds no FAQ questions"):
        parse_archive(path)


@pytest.fixture
def no_archive(monkeypatch, tmp_path):
    """No FAQ_ARCHIVE and a cache path inside tmp_path."""
    monkeypatch.delenv("FAQ_ARCHIVE", raising=False)
    cache = tmp_path / "data" / "faq-cache.json"
    monkeypatch.setattr(ingest, "CACHE_PATH", cache)
    return cache


def test_download_then_cache(no_archive, monkeypatch):
    calls = []
    monkeypatch.setattr(ingest, "download_archive", lambda **kw: calls.append(1) or make_faq_zip(TINY_FAQ))
    first = load_faq_data()
    assert no_archive.exists() and len(calls) == 1
    assert load_faq_data() == first and len(calls) == 1  # second load comes from the cache
    assert not list(no_archive.parent.glob("*.part"))


def test_no_network_and_no_cache_names_both_fixes(no_archive, monkeypatch):
    def refuse(*args, **kwargs):
        raise urllib.error.URLError("no network")

    monkeypatch.setattr(ingest.urllib.request, "urlopen", refuse)
    with pytest.raises(FaqDataError) as err:
        load_faq_data(progress=False)
    message = str(err.value)
    assert "connect to the internet" in message and "FAQ_ARCHIVE" in message
    assert not no_archive.exists()


def test_interrupted_download_leaves_no_cache(no_archive, monkeypatch):
    def interrupted(**kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(ingest, "download_archive", interrupted)
    with pytest.raises(KeyboardInterrupt):
        load_faq_data()
    assert not no_archive.exists()


def test_interrupted_cache_write_leaves_nothing_half_written(no_archive, monkeypatch):
    monkeypatch.setattr(ingest, "download_archive", lambda **kw: make_faq_zip(TINY_FAQ))

    def boom(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(ingest.os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        load_faq_data()
    assert list(no_archive.parent.iterdir()) == []


def test_damaged_cache_says_delete_it(no_archive):
    no_archive.parent.mkdir(parents=True)
    no_archive.write_text("{not json")
    with pytest.raises(FaqDataError, match="damaged.*Delete it"):
        load_faq_data()


def test_live_feed_is_opt_in_and_parsed(monkeypatch):
    pages = {
        ingest.LIVE_URL: [{"course": "x-course", "path": "x-course.json"}],
        "https://datatalks.club/faq/json/x-course.json": [
            {"id": "1", "section": "General", "question": "Q?", "answer": "A."}],
    }
    monkeypatch.setattr(ingest, "_fetch_json", lambda url, timeout: pages[url])
    assert load_faq_data(live=True) == [
        {"id": "1", "course": "x-course", "section": "General", "question": "Q?", "answer": "A."}]


def test_live_feed_failure_points_back_to_snapshot(monkeypatch):
    def refuse(*args, **kwargs):
        raise urllib.error.URLError("offline")

    monkeypatch.setattr(ingest.urllib.request, "urlopen", refuse)
    with pytest.raises(FaqDataError, match="pinned snapshot"):
        load_faq_data(live=True)


def test_cache_round_trip_is_plain_json(no_archive, monkeypatch):
    monkeypatch.setattr(ingest, "download_archive", lambda **kw: make_faq_zip(TINY_FAQ))
    docs = load_faq_data()
    assert json.loads(no_archive.read_text(encoding="utf-8")) == docs
