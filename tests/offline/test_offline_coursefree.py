"""The offline model is course-free: its code names no course and no subject, and it behaves the same on
subjects no lesson uses (recipes, a library, a help desk, a bakery, a train timetable, a markdown knowledge
base). Every document here is made up in this file; none of it is a lesson's wording."""

import json
import re
from pathlib import Path

import pytest

from helpers.offline.conversation import Call, Conversation, Tool
from helpers.offline.engine import decide
from helpers.offline.knowledge import Vocabulary

OFFLINE = Path(__file__).resolve().parents[2] / "helpers" / "offline"
# The course, its FAQ and the FAQ's subjects: none may appear in the offline model's code or answers.
COURSE_WORDS = {"course", "courses", "faq", "faqs", "zoomcamp", "datatalks", "datatalksclub", "homework",
                "ollama", "docker", "cohort", "certificate", "certificates", "capstone", "student", "students",
                "kafka", "terraform", "mlops", "elasticsearch", "minsearch", "lesson", "lessons"}


def course_words(text: str) -> set[str]:
    """The course words in a text, as whole words, identifiers split at '_' and case changes."""
    split = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return set(re.findall(r"[a-z]+", split.lower())) & COURSE_WORDS


@pytest.mark.parametrize("path", sorted(OFFLINE.glob("*.py")), ids=lambda p: p.name)
def test_no_course_word_in_the_code(path):
    found = course_words(path.read_text(encoding="utf-8"))
    assert not found, f"{path.name} names {sorted(found)}: the offline model must know no course"


def test_the_offline_model_imports_no_lesson_helper():
    for path in OFFLINE.glob("*.py"):
        imports = re.findall(r"^\s*(?:from|import)\s+(helpers\.[\w.]+)", path.read_text(encoding="utf-8"), re.M)
        assert all(m.startswith("helpers.offline") for m in imports), (path.name, imports)


# --- five subjects, made up here -------------------------------------------------------------------------

SEARCH = Tool("search", "Search the documents.", {"type": "object", "properties": {"query": {"type": "string"}},
                                                   "required": ["query"]})

RECIPES = [{"title": f"{dish} for {n} people", "content": f"Cook the {dish.lower()} for {10 + n} minutes. {tip}"}
           for n, (dish, tip) in enumerate([
               ("Tomato soup", "Season it with basil at the end."),
               ("Sourdough loaf", "Proof the sourdough overnight in the fridge. Bake it at 230 degrees."),
               ("Lentil curry", "Add the coconut milk last. It keeps for three days."),
               ("Pancakes", "Rest the batter for half an hour. Flip them once."),
               ("Risotto", "Stir in the stock one ladle at a time.")], start=2)]
LIBRARY = [{"id": f"bk-{i}", "title": title, "text": text} for i, (title, text) in enumerate([
    ("Renewing a loan", "You can renew a loan twice online. Each renewal adds three weeks."),
    ("Making a reservation", "Place a reservation at the desk or online. We hold reserved items for a week."),
    ("Late fees", "Late fees are ten cents a day. They stop at five euros per item."),
    ("Lending novels", "Novels are lent for three weeks. New novels for one week only."),
    ("Printing and scanning", "Printing costs five cents a page. The scanner is free to use.")])]
HELP_DESK = [{"id": f"HD{i:03}", "question": q, "answer": a} for i, (q, a) in enumerate([
    ("How do I reset my password?", "Open the account page and choose Reset password. A link arrives by email."),
    ("Why is the printer offline?", "Check the cable first. The printer discards jobs over fifty pages."),
    ("How do I join a webcast?", "Open the invitation and press Join. The webcast starts ten minutes early."),
    ("Where do I report a broken laptop?", "File a ticket under Hardware. A technician calls within a day."),
    ("How do I connect to the guest wifi?", "Pick the network Guest and accept the terms.")], start=1)]
BAKERY = [{"name": name, "body": body, "price_eur": price} for name, body, price in [
    ("Butter croissant", "Our croissant is baked every morning at six. It contains butter and milk.", 1.8),
    ("Rye bread", "The rye bread is vegan. It keeps for a week in a cloth bag.", 4.2),
    ("Carrot cake", "The carrot cake has walnuts. Ask for a slice without frosting.", 3.5),
    ("Cinnamon bun", "Cinnamon buns come out of the oven at ten.", 2.5)]]
TRAINS = [{"id": f"T{n}", "from": a, "to": b, "departs": dep, "platform": p, "notes": notes}
          for n, a, b, dep, p, notes in [
              (101, "Leeds", "York", "07:10", "4", "Sweepers clean the carriages at the terminus."),
              (102, "York", "Leeds", "08:25", "2", "Bicycles travel in the first carriage."),
              (103, "Leeds", "Hull", "09:40", "6", "A buffet car serves hot drinks."),
              (104, "Hull", "York", "11:05", "1", "Quiet coach in carriage C.")]]

DOMAINS = {"recipes": RECIPES, "library": LIBRARY, "help desk": HELP_DESK, "bakery": BAKERY, "trains": TRAINS}


def search_over(documents: list[dict], k: int = 3):
    """A plain word-overlap search over `documents`: the k with most query words, in their order."""
    def search(query: str) -> list[dict]:
        asked = set(re.findall(r"\w+", query.lower()))
        scored = [(len(asked & set(re.findall(r"\w+", json.dumps(d).lower()))), -i, d) for i, d in enumerate(documents)]
        return [d for score, _, d in sorted(scored, key=lambda x: x[:2], reverse=True)[:k] if score > 0]
    return search


def run(question: str, documents: list[dict], vocab: Vocabulary | None = None, instructions: str = "",
        k: int = 3) -> tuple[str, list[str]]:
    """The model's loop on a search tool over `documents`: (final answer, queries sent)."""
    search = search_over(documents, k)
    calls: list[Call] = []
    for batch in range(6):
        decision = decide(Conversation(instructions=instructions, question=question, calls=list(calls),
                                       tools=[SEARCH]), vocab)
        if decision.text is not None:
            return decision.text, [json.loads(c.arguments)["query"] for c in calls]
        for i, (name, arguments) in enumerate(decision.calls):
            output = json.dumps(search(json.loads(arguments)["query"]))
            calls.append(Call(name, arguments, f"c{batch}-{i}", batch, output))
    raise AssertionError("the model never answered")


# (question, the name the answer must give its source, a sentence the quote must hold)
ASKED = {
    "recipes": ("How long do I cook the risotto?", '"Risotto for 6 people"', "Stir in the stock"),
    "library": ("How much are late fees?", '"Late fees" [bk-2]', "Late fees are ten cents a day."),
    "help desk": ("How do I reset my password?", '"How do I reset my password?" [HD001]', "Reset password."),
    "bakery": ("Is the rye bread vegan?", '"Rye bread"', "The rye bread is vegan."),
    "trains": ("Which platform for the buffet car train?", '"T103"', "buffet car"),
}


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_answer_names_its_source_by_its_own_best_field(domain):
    question, name, sentence = ASKED[domain]
    answer, _ = run(question, DOMAINS[domain])
    assert answer.startswith(f"According to {name}: "), answer
    assert sentence in answer
    assert not course_words(answer)
    assert "search result" not in answer and "entry" not in answer


# (question with a typo, the typo, the word of the documents it stands for)
TYPOS = {
    "recipes": ("Sourdugh: how many minutes?", "sourdugh", "sourdough"),
    "library": ("Where do I place a reservaton?", "reservaton", "reservation"),
    "help desk": ("I forgot my pasword, how do I reset it?", "pasword", "password"),
    "bakery": ("When is the croisant baked?", "croisant", "croissant"),
    "trains": ("Which platfrom for the train to Hull?", "platfrom", "platform"),
}


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_typo_is_repaired_against_the_documents(domain):
    question, typo, word = TYPOS[domain]
    answer, queries = run(question, DOMAINS[domain], k=4)
    assert typo in queries[0]
    assert any(word in q.split() for q in queries[1:]), queries  # searched again with the repaired word
    assert "According to" in answer


# (question with a real word the documents lack, the word of the documents two edits away)
REAL_WORDS = {
    "library": ("Do you lend a novella for a month?", "novels"),
    "help desk": ("Is there a discord server for help?", "discards"),
    "trains": ("Is there a sleeper train to York?", "sweepers"),
}


@pytest.mark.parametrize("domain", REAL_WORDS)
def test_a_real_word_is_not_repaired(domain):
    question, near = REAL_WORDS[domain]
    _, queries = run(question, DOMAINS[domain])
    assert not any(near in q.split() for q in queries), queries


def test_a_word_the_instructions_use_is_not_repaired():
    # "scone" is one edit from "stone", but the instructions vouch for it: it is a word, not a typo.
    docs = [{"name": "Stone-baked bread", "body": "Baked on a stone floor oven."}]
    _, queries = run("Do you bake a scone?", docs, instructions="You answer for a bakery that sells scones.")
    assert not any("stone" in q.split() for q in queries)


def test_the_topic_comes_from_a_handed_in_vocabulary_or_from_the_instructions():
    labels = "Reply with exactly one word: ALLOW or BLOCK."
    vocab = Vocabulary([d["content"] for d in RECIPES], titles=[d["title"] for d in RECIPES], seen_enough=1)
    assert decide(Conversation(instructions=labels, question="Can I bake the sourdugh loaf overnight?"),
                  vocab).text == "ALLOW"
    assert decide(Conversation(instructions=labels, question="Who won the chess final?"), vocab).text == "BLOCK"
    scoped = f"{labels} ALLOW questions about the library: loans, renewals, reservations and late fees."
    assert decide(Conversation(instructions=scoped, question="Are there late fees on reservations?")).text == "ALLOW"
    assert decide(Conversation(instructions=scoped, question="Who won the chess final?")).text == "BLOCK"
    assert vocab.correct("sourdugh") == "sourdough" and vocab.correct("discord") is None


def test_a_vocabulary_joins_a_topic_that_names_it_with_a_name_used_only_in_passing():
    # "Riverside" is in the documents' text but in no title: the phrase is still about them, so their
    # words join it ("renew" is no word of the phrase). A phrase the documents never use stays alone.
    vocab = Vocabulary([d["text"] + " Ask at the Riverside desk." for d in LIBRARY],
                       titles=[d["title"] for d in LIBRARY], seen_enough=1)
    named = "Answer YES if the message is about the Riverside loans, reservations or late fees, NO otherwise."
    assert decide(Conversation(instructions=named, question="Can I renew online twice?"), vocab).text == "YES"
    assert decide(Conversation(instructions=named, question="Who won the chess final?"), vocab).text == "NO"
    other = "Answer YES if the message is about cooking, NO otherwise."
    assert decide(Conversation(instructions=other, question="Can I renew online twice?"), vocab).text == "NO"
    # Naming one more thing widens the topic: the documents' words still join the part that is about them.
    wider = "Answer YES if the message is about the Riverside loans and late fees, or about chess, NO otherwise."
    assert decide(Conversation(instructions=wider, question="Can I renew online twice?"), vocab).text == "YES"
    assert decide(Conversation(instructions=wider, question="Who won the chess final?"), vocab).text == "YES"
    assert decide(Conversation(instructions=wider, question="Is it raining in Leeds?"), vocab).text == "NO"


def test_else_ends_a_labels_condition():
    from helpers.offline.instructions import read_labels

    rule = read_labels("Reply with exactly one word: ALLOW if the ticket is about printers, else BLOCK")
    assert rule.conditions[0].topic.words == ("printers",) and rule.negative == "BLOCK"


# --- quotes are whole sentences; a markdown knowledge base ------------------------------------------------

GUIDE = {
    "docs/setup.md": "# Setting up the kiln\n\nThe kiln needs a 32 amp socket. Place it at least half a metre "
                     "from any wall. Fire it empty once before the first glaze firing. The first firing takes "
                     "about nine hours and the lid stays closed until it is cold.",
    "docs/glazes.md": "# Glazes\n\nStir every glaze before use. Celadon glaze needs a reduction atmosphere. "
                      "Store glazes in sealed buckets away from frost. A frozen glaze separates and must be "
                      "sieved again.",
    "docs/safety.md": "# Safety\n\nWear a dust mask when you sand dry clay. Never open a hot kiln. Keep a "
                      "fire blanket next to the kiln room door.",
}


def chunks(size: int = 120, step: int = 80) -> list[dict]:
    """The guide cut into overlapping chunks of characters, as a document splitter cuts them."""
    out = []
    for filename, content in GUIDE.items():
        for start in range(0, len(content), step):
            out.append({"filename": filename, "content": content[start:start + size]})
    return out


def test_a_markdown_knowledge_base_is_answered_naming_the_file_in_whole_sentences():
    answer, _ = run("How long does the first kiln firing take?", chunks())
    assert answer.startswith('According to "docs/setup.md": '), answer
    quote = answer.split(": ", 1)[1]
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\s*\u2026\s*", quote) if s]
    whole = re.split(r"(?<=[.!?])\s+", GUIDE["docs/setup.md"].split("\n\n", 1)[1])
    assert sentences and all(s in whole for s in sentences), sentences


@pytest.mark.parametrize("domain", ["recipes", "bakery"])
def test_a_chunk_cut_mid_sentence_is_quoted_from_its_whole_sentences(domain):
    cut = [{**d, **{k: "e " + v[5:] + " Then the" for k, v in d.items() if k in ("content", "body")}}
           for d in DOMAINS[domain]]
    question = ASKED[domain][0]
    answer, _ = run(question, cut)
    quote = answer.split(": ", 1)[1]
    assert not quote.startswith("e ") and not quote.endswith("Then the"), quote
    assert quote.endswith("."), quote


# --- the fixed texts: no course, no subject ---------------------------------------------------------------

@pytest.mark.parametrize("instructions,question,tools", [
    ("", "Hello", []),
    ("", "What does overcast mean?", []),
    ("Only answer questions about the bakery's bread.", "Who won the 1998 world cup?", []),
    ("Reply with exactly one word: ALLOW or BLOCK.", "Is the rye bread vegan?", []),
    ("", "Where is the nearest bus stop to the moon?", [SEARCH]),
])
def test_no_answer_names_a_course(instructions, question, tools):
    if tools:  # searches that find nothing, then the answer
        text, _ = run(question, [], instructions=instructions)
    else:
        text = decide(Conversation(instructions=instructions, question=question)).text
    assert text and not course_words(text), text


def test_a_vocabulary_is_handed_in_through_the_client_the_transport_and_the_server():
    from openai import OpenAI

    from helpers.offline import OFFLINE_MODEL, OfflineServer, neutral_client

    vocab = Vocabulary([d["content"] for d in RECIPES], titles=[d["title"] for d in RECIPES], seen_enough=1)
    request = {"model": OFFLINE_MODEL, "instructions": "Reply with exactly one word: ALLOW or BLOCK.",
               "input": "Can I bake the sourdugh loaf overnight?"}
    assert neutral_client(vocabulary=vocab).responses.create(**request).output_text == "ALLOW"
    assert neutral_client().responses.create(**request).output_text == "BLOCK"  # knows only the request
    with OfflineServer(vocabulary=vocab) as srv:
        client = OpenAI(api_key="any", base_url=srv.base_url, max_retries=0)
        assert client.responses.create(**request).output_text == "ALLOW"
