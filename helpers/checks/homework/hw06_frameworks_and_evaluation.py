"""Homework 06 · Frameworks and evaluation: the checks of tasks 6.1-6.4 (lessons 11 and 12).

The FAQ agent built in a framework (the OpenAI Agents SDK or PydanticAI, the student's choice) and run on the
offline model; lesson 07's iteration cap in framework words (`max_turns` or `UsageLimits(request_limit=...)`),
its exception caught and turned into a message; hit rate and MRR of the search written by hand; and a setting
tuned on the validation half of the ground truth, then measured once on the held-back half.

The framework checks run the student's agent on a fresh offline client of their own, in a worker thread with
its own event loop: a notebook's loop is already running, so a check can't `await`, and the offline model is
the one that can be made to never stop. The evaluation checks compute the expected figures themselves with
helpers.evaluate (FieldScores gives the same ranks as helpers.search.search, and a test there checks it).
Left out on purpose: streaming, typed outputs and the judge (lesson 11's and 12's other parts), and any check
that the student tuned on validation rather than on the held-back half, which no figure can prove.
"""

from __future__ import annotations

import asyncio
import math

from helpers.checks.core import CheckFailed, NotDoneYet, fail_if, run_async, run_student_code, task_check

# Questions of the ground truth (two for each entry, so that an agent that hard-codes one answer fails).
AGENT_QUESTIONS = [("I just found out about the course. Can I still join?", "74eb249bbf"),
                   ("How do I install Ollama on my computer?", "1d0b969028")]
CAP_QUESTION = AGENT_QUESTIONS[0][0]
CAP_LIMITS = (2, 4)  # two limits, so that a number written into the code shows
# Every 8th answerable row: enough for the figures to tell the formulas apart, quick enough to search by hand.
SAMPLE_STEP = 8
OTHER_SETTING = ({"question": 1.0, "section": 1.0, "answer": 0.5}, 3)  # where 3 results find fewer than 5


def _count_model_calls(client) -> list:
    """Wrap the async client's two create methods so that each model call appends to the returned list.

    Example:
        >>> from helpers.llm import async_offline_client
        >>> calls = _count_model_calls(async_offline_client())
        >>> calls
        []
    """
    calls: list = []
    for resource in (client.responses, client.chat.completions):
        create = resource.create

        async def counted(*args, _create=create, **kwargs):
            calls.append(kwargs.get("model"))
            return await _create(*args, **kwargs)

        resource.create = counted  # the resource is cached on the client, so both frameworks call this one
    return calls


def _framework_of(agent) -> str:
    """"agents" (OpenAI Agents SDK) or "pydantic_ai" for an agent object; CheckFailed for anything else.

    Example:
        >>> from pydantic_ai import Agent
        >>> _framework_of(Agent("test"))
        'pydantic_ai'
    """
    from agents import Agent as SdkAgent
    from pydantic_ai import Agent as PydanticAgent

    if isinstance(agent, SdkAgent):
        return "agents"
    if isinstance(agent, PydanticAgent):
        return "pydantic_ai"
    raise CheckFailed(f"make_faq_agent returned a {type(agent).__name__}; return the agent itself (an "
                      "agents.Agent or a pydantic_ai.Agent), not its run or its answer.")


async def _run_agent(agent, question: str) -> tuple[str, int]:
    """Run an agent of either framework on a question: (final text, number of tool calls).

    Example:
        >>> from pydantic_ai import Agent
        >>> run_async(lambda: _run_agent(Agent("test"), "Hi"))
        ('success (no tool calls)', 0)
    """
    if _framework_of(agent) == "agents":
        from agents import Runner

        result = await Runner.run(agent, question)
        return str(result.final_output), sum(item.type == "tool_call_item" for item in result.new_items)
    run = await agent.run(question)
    calls = [part for message in run.all_messages() for part in message.parts if part.part_kind == "tool-call"]
    return str(run.output), len(calls)


def _build_agent(make_faq_agent, faults=None):
    """(agent, client, model calls) for the student's factory on a fresh async offline client (no retries).

    Example:
        >>> _build_agent(None)
        Traceback (most recent call last):
        helpers.checks.core.NotDoneYet: define the function in the cell above, then run this cell again.
    """
    from helpers.llm import async_offline_client
    from helpers.offline import OFFLINE_MODEL

    if make_faq_agent is None:
        raise NotDoneYet("define the function in the cell above, then run this cell again.")
    client = async_offline_client(faults, max_retries=0)
    calls = _count_model_calls(client)
    agent = run_student_code(make_faq_agent, client, OFFLINE_MODEL, what="make_faq_agent")
    _framework_of(agent)
    return agent, calls


def _framework_errors() -> tuple[type[Exception], ...]:
    """The exceptions the two frameworks raise when a limit ends a run.

    Example:
        >>> [e.__name__ for e in _framework_errors()]
        ['AgentsException', 'AgentRunError']
    """
    from agents.exceptions import AgentsException
    from pydantic_ai.exceptions import AgentRunError

    return AgentsException, AgentRunError


@task_check("06-frameworks-and-evaluation", "6.1")
def check_faq_agent(make_faq_agent):
    """Check `make_faq_agent(client, model)`: a framework agent with a search tool that cites the right entry.

    Example:
        >>> check_faq_agent(None)
        [NOT DONE YET] Task 6.1 · The FAQ agent in a framework: define the function in the cell above, then run
        this cell again.
    """
    for question, entry in AGENT_QUESTIONS:
        agent, calls = _build_agent(make_faq_agent)

        async def ask(agent=agent, question=question):
            return await _run_agent(agent, question)

        try:
            answer, tool_calls = run_async(ask)
        except TypeError as e:
            fail_if("await" in str(e), "the framework could not await the model's reply: build the agent's "
                    "model on the async client make_faq_agent is given (openai.AsyncOpenAI), not a sync one.")
            raise CheckFailed(f"running your agent raised TypeError: {e}") from None
        fail_if(not calls, "your agent never called the model it was given; build its model on the client "
                "make_faq_agent receives.")
        fail_if(tool_calls == 0, f"asked {question!r}, your agent answered without calling a tool; give it "
                "the FAQ search as a tool (a typed function with a docstring).")
        fail_if(f"[{entry}]" not in answer, f"asked {question!r}, your agent searched but its answer cites "
                "no entry id that answers the question. Does your tool return the search results with their "
                "ids, from the course's FAQ?")
    return f"answered {len(AGENT_QUESTIONS)} course questions, each citing the entry that answers it."


@task_check("06-frameworks-and-evaluation", "6.2")
def check_turn_limit(ask_capped, make_faq_agent):
    """Check `async ask_capped(agent, question, max_calls) -> str`: the framework's turn limit, caught.

    Example:
        >>> check_turn_limit(None, None)
        [NOT DONE YET] Task 6.2 · A turn limit, caught: define the function in the cell above, then run this
        cell again.
    """
    if ask_capped is None:
        raise NotDoneYet("define the function in the cell above, then run this cell again.")

    def agent_of_task_1(faults=None):
        try:
            return _build_agent(make_faq_agent, faults)
        except NotDoneYet:
            raise NotDoneYet("this task runs your agent of task 6.1: finish make_faq_agent first.") from None

    def capped(agent, max_calls):
        async def call():
            value = ask_capped(agent, CAP_QUESTION, max_calls)
            return await value if asyncio.iscoroutine(value) else value

        return run_student_code(lambda: run_async(call), what="ask_capped", allow_none=True)

    def no_escape(agent, max_calls):
        try:
            return capped(agent, max_calls)
        except CheckFailed as e:
            names = [error.__name__ for error in _framework_errors()]
            if any(name in str(e) for name in ("MaxTurnsExceeded", "UsageLimitExceeded", *names)):
                raise CheckFailed(f"on a model that never stops, {str(e).split(':')[0]}, and it reached the "
                                  "caller: catch the framework's limit exception and return a message "
                                  "instead.") from None
            raise

    for max_calls in CAP_LIMITS:
        agent, calls = agent_of_task_1("never_stop")
        message = no_escape(agent, max_calls)
        fail_if(len(calls) > max_calls, f"with max_calls={max_calls}, a model that never stops was called "
                f"{len(calls)} times; pass the limit to the run (in the framework's own units: turns or "
                "requests).")
        fail_if(len(calls) < max_calls, f"with max_calls={max_calls}, the run stopped after {len(calls)} model "
                "call(s); the limit allows more. Check how your framework counts its limit.")
        fail_if(not isinstance(message, str) or not message.strip(), f"when the limit stopped the run, "
                f"ask_capped returned {message!r}; return a message (a non-empty string) for the user.")

    agent, calls = agent_of_task_1()
    answer = capped(agent, 5)
    fail_if(not isinstance(answer, str), f"on a run that ends by itself, ask_capped returned a "
            f"{type(answer).__name__}; return the agent's answer as text.")
    fail_if(f"[{AGENT_QUESTIONS[0][1]}]" not in answer, "on a model that answers after one search, ask_capped "
            "did not return the agent's answer; return the message only when the limit stopped the run.")
    return f"stopped a never-ending run at {CAP_LIMITS[0]} and {CAP_LIMITS[1]} model calls, with a message."


def _sample_rows() -> list[dict]:
    """Every SAMPLE_STEP-th answerable row of the ground truth.

    Example:
        >>> len(_sample_rows())
        40
    """
    from helpers.evaluate import answerable, load_ground_truth
    from helpers.ingest import load_faq_data

    return answerable(load_ground_truth(progress=False), load_faq_data())[::SAMPLE_STEP]


def _close(got, expected) -> bool:
    """Whether two figures agree to 4 decimals (a student may round what they report).

    Example:
        >>> _close(0.81515, 0.8151562), _close(0.81, 0.8151562)
        (True, False)
    """
    return isinstance(got, int | float) and math.isclose(got, expected, abs_tol=5e-5)


def _pair(value, what: str) -> tuple:
    """A (hit_rate, mrr) pair, or CheckFailed saying what came back instead.

    Example:
        >>> _pair([0.9, 0.8], "your function")
        (0.9, 0.8)
    """
    fail_if(not isinstance(value, tuple | list) or len(value) != 2, f"{what} gave {type(value).__name__} "
            f"{str(value)[:60]!r}; return a pair: (hit_rate, mrr).")
    return tuple(value)


@task_check("06-frameworks-and-evaluation", "6.3")
def check_hit_rate_and_mrr(hit_rate_and_mrr):
    """Check `hit_rate_and_mrr(rows, boost, num_results) -> (hit_rate, mrr)` against helpers.evaluate's figures.

    Example:
        >>> check_hit_rate_and_mrr(None)
        [NOT DONE YET] Task 6.3 · Hit rate and MRR: define the function in the cell above, then run this cell
        again.
    """
    from helpers.evaluate import FieldScores, scores
    from helpers.search import NUM_RESULTS, ZOOMCAMP_BOOST, default_index

    if hit_rate_and_mrr is None:
        raise NotDoneYet("define the function in the cell above, then run this cell again.")
    rows = _sample_rows()
    field_scores = FieldScores(default_index(), rows)
    for boost, k in [(ZOOMCAMP_BOOST, NUM_RESULTS), OTHER_SETTING]:
        hit, mrr = scores(field_scores.ranks(boost, k))
        got = _pair(run_student_code(hit_rate_and_mrr, rows, boost, k, what="hit_rate_and_mrr"),
                    "hit_rate_and_mrr")
        setting = f"boost={boost}, num_results={k}"
        fail_if(_close(got[0], mrr) and _close(got[1], hit), f"with {setting}, your figures are in the wrong "
                "order: return (hit_rate, mrr).")
        fail_if(not _close(got[0], hit), f"with {setting}, your hit rate on {len(rows)} rows differs from the "
                "check's. Search each row's question with exactly that setting, in the row's course, and count "
                "a hit when the row's document is among the results.")
        fail_if(not _close(got[1], mrr), f"with {setting}, your hit rate is right but your MRR is not. MRR is "
                "the mean over every row (found or not) of 1/rank, where the first result has rank 1 and a "
                "miss counts 0.")
    return f"the same hit rate and MRR as helpers.evaluate, on {len(rows)} rows and two settings."


def _setting_parts(setting) -> tuple[dict, int]:
    """(boost, num_results) of a student's setting dict, or CheckFailed saying what is wrong with it.

    Example:
        >>> _setting_parts({"boost": {"question": 2}, "num_results": 3})
        ({'question': 2}, 3)
    """
    from helpers.search import TEXT_FIELDS

    fail_if(not isinstance(setting, dict) or set(setting) != {"boost", "num_results"},
            'setting should be a dict with two keys: "boost" (a dict of field weights) and "num_results".')
    boost, k = setting["boost"], setting["num_results"]
    fail_if(not isinstance(boost, dict) or not set(boost) <= set(TEXT_FIELDS)
            or not all(isinstance(v, int | float) and v >= 0 for v in boost.values()),
            f"setting['boost'] should weigh the text fields {TEXT_FIELDS} with numbers of 0 or more.")
    fail_if(not isinstance(k, int) or not 1 <= k <= 20, "setting['num_results'] should be a whole number "
            "from 1 to 20.")
    return boost, k


@task_check("06-frameworks-and-evaluation", "6.4")
def check_tuned_setting(setting, held_back_scores):
    """Check a setting tuned on validation and its (hit_rate, mrr) on the held-back half, measured once.

    Example:
        >>> from helpers.search import ZOOMCAMP_BOOST
        >>> check_tuned_setting({"boost": ZOOMCAMP_BOOST, "num_results": 5}, None)
        [NOT DONE YET] Task 6.4 · A tuned setting, checked once: tune the setting on `validation`, then set
        held_back_scores to its (hit_rate, mrr) on `held_back`.
    """
    from helpers.evaluate import FieldScores, answerable, load_ground_truth, scores, split_by_entry
    from helpers.ingest import load_faq_data
    from helpers.search import NUM_RESULTS, ZOOMCAMP_BOOST, default_index

    if held_back_scores is None:
        raise NotDoneYet("tune the setting on `validation`, then set held_back_scores to its (hit_rate, mrr) "
                         "on `held_back`.")
    boost, k = _setting_parts(setting)
    fail_if(boost == ZOOMCAMP_BOOST and k == NUM_RESULTS, "that is the default setting (ZOOMCAMP_BOOST, 5 "
            "results); try other settings on the validation half and keep the best.")
    got = _pair(held_back_scores, "held_back_scores")
    rows = answerable(load_ground_truth(progress=False), load_faq_data())
    validation, held_back = split_by_entry(rows)
    index = default_index()
    on = {name: FieldScores(index, part) for name, part in [("validation", validation), ("held_back", held_back),
                                                            ("all", rows)]}
    mine = {name: scores(fs.ranks(boost, k)) for name, fs in on.items()}
    default = {name: scores(fs.ranks(ZOOMCAMP_BOOST, NUM_RESULTS)) for name, fs in on.items()}

    def same(pair, expected):
        return _close(pair[0], expected[0]) and _close(pair[1], expected[1])

    if not same(got, mine["held_back"]):
        fail_if(same(got[::-1], mine["held_back"]), "held_back_scores is in the wrong order: (hit_rate, mrr).")
        fail_if(same(got, mine["validation"]), "held_back_scores are your setting's figures on the validation "
                "half; measure it on `held_back`.")
        fail_if(same(got, mine["all"]), "held_back_scores are your setting's figures on all the answerable "
                "rows; measure it on `held_back` only.")
        fail_if(same(got, default["held_back"]), "held_back_scores are the default setting's figures; measure "
                "your own setting (its boost and its num_results).")
        raise CheckFailed(f"held_back_scores {tuple(round(x, 4) for x in got)} are not your setting's figures on "
                          "the held-back half (split_by_entry of the answerable rows); measure it with its "
                          "boost and its num_results.")
    fail_if(mine["validation"][1] < default["validation"][1], "your setting ranks worse than the default on "
            "the validation half, where you chose it: keep the setting with the best validation MRR.")
    fail_if(mine["held_back"][0] < default["held_back"][0], "on the held-back half your setting finds the "
            "right entry less often than the default (ZOOMCAMP_BOOST, 5 results): too few results, or weights "
            "that fit only the validation questions?")
    fail_if(mine["held_back"][1] < default["held_back"][1], "on the held-back half your setting has a lower "
            "MRR than the default: weights that fit only the validation questions?")
    gain = mine["held_back"][1] - default["held_back"][1]
    return f"held-back MRR {gain:+.3f} over the default, measured once on questions the tuning never saw."
