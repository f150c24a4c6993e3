"""The offline model's path rule (helpers.offline.param_values): a parameter about a path, file, folder or
directory gets the path-like token of the question, quoted or not.

The tools and questions come from made-up domains no lesson uses (photo backups, a linter, a recipe box, a
build tool); the rule is tested through `decide`, as the model runs it, and on its own."""

import json

import pytest

from helpers.offline.conversation import Conversation, Tool
from helpers.offline.engine import decide
from helpers.offline.param_values import path_in, value_for

BACKUP = Tool("archive_folder", "Archive a folder of photos into a dated backup.",
              {"type": "object", "properties": {"source_dir": {"type": "string",
                                                               "description": "The folder to archive."}},
               "required": ["source_dir"]})
LINTER = Tool("lint_file", "Report the style problems in one source file.",
              {"type": "object", "properties": {"file_path": {"type": "string"}}, "required": ["file_path"]})
RECIPES = Tool("read_recipe", "Read a recipe card from the recipe box.",
               {"type": "object", "properties": {"card": {"type": "string", "format": "path",
                                                          "description": "Where the card is stored."}},
                "required": ["card"]})
BUILD = Tool("build_history", "The last builds of a project, newest first.",
             {"type": "object", "properties": {"repo_path": {"type": "string", "title": "Repo Path"},
                                               "max_count": {"type": "integer", "default": 10}},
              "required": ["repo_path"]})


def first_call(question, tool):
    decision = decide(Conversation(question=question, tools=[tool]))
    assert decision.calls, decision.text
    name, arguments = decision.calls[0][:2]
    assert name == tool.name
    return json.loads(arguments)


@pytest.mark.parametrize(("question", "tool", "param", "expected"), [
    ("Please archive /srv/photos/2024 tonight.", BACKUP, "source_dir", "/srv/photos/2024"),
    ("Any style problems in src/garden/planter.py?", LINTER, "file_path", "src/garden/planter.py"),
    ("Read me the card at ~/recipes/lentil-soup.txt", RECIPES, "card", "~/recipes/lentil-soup.txt"),
    ("Show the last builds of ../workshop/kiln-control.", BUILD, "repo_path", "../workshop/kiln-control"),
    ("Show the last builds of the project 'builds/kiln-control'.", BUILD, "repo_path", "builds/kiln-control"),
])
def test_a_path_parameter_gets_the_questions_path(question, tool, param, expected):
    assert first_call(question, tool)[param] == expected


@pytest.mark.parametrize("text", [
    "Wind of 20 km/h and/or rain",  # units and conjunctions
    "On 12/03/2026 we used 3/4 of the flour",  # a date and a fraction
    "The manual is at https://example.org/docs/kiln.html",  # a URL is not a local path
    "Archive my photos folder",  # a folder named in words, not a path
])
def test_what_is_not_a_path(text):
    assert path_in(text) is None


def test_a_parameter_not_about_paths_ignores_a_path():
    city = {"type": "string", "description": "The city to forecast."}
    assert value_for("city", city, "Forecast for the city in /srv/maps/oslo.json") is None


def test_windows_and_trailing_punctuation():
    assert path_in(r"Lint C:\garden\planter.py, please") == r"C:\garden\planter.py"
    assert path_in('Open "./drafts/ideas.md".') == "./drafts/ideas.md"
