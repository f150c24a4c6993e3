"""Labels a classifier prompt names, the topic that earns each one, and the verdict for a question.

The grammar (case-insensitive words, labels in capitals, quoted, or yes/no/true/false):
- a label with its condition: "ALLOW if the question is about X", "answer YES when it concerns X",
  "If the message is about X, reply YES"; "not" in the condition turns it round ("BLOCK if it is not
  about X");
- the label for the rest: "BLOCK otherwise", "otherwise NO", "in all other cases REJECT", or a condition
  with no topic words of its own ("OFF_TOPIC when unrelated");
- labels side by side after a reply cue: "Reply with exactly one word: ALLOW or BLOCK", "answer yes or
  no", "respond with POSITIVE, NEGATIVE or NEUTRAL"; their topic is then what the instructions say the
  question should be "about" ("Is the question about the timetable?"), else all their other words;
- one label whatever comes: "Always reply ALLOW", "Whatever the question, say YES", "reply OK to every
  message".

`read_labels(text)` -> `LabelRule` or None; `LabelRule.verdict(question, vocab, given)` picks the label
whose topic the question is about (topic.py), else the label for the rest.

What it leaves out on purpose: judging anything but topic. "Answer YES if the statement is true" has a
condition with no topic to match, so it gets the label for the rest; a real model would check the
statement. With labels but no topic named anywhere, the question can't be placed, and it gets the
negative (second) label unless a vocabulary handed to the client stands in as the topic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from helpers.offline.instructions.clauses import near
from helpers.offline.instructions.topic import Topic, about, share
from helpers.offline.knowledge import Vocabulary
from helpers.offline.text import STOP_WORDS

_Q = "[\"'\u201c\u201d\u2018\u2019`]?"
# A label: a word in capitals (ALLOW, ON_TOPIC, NOT-SURE), or yes / no / true / false in any case.
_LABEL = rf"{_Q}(?P<{{name}}>[A-Z][A-Z0-9]+(?:[_-][A-Z0-9]+)*|[Yy]es|[Nn]o|YES|NO|[Tt]rue|[Ff]alse){_Q}(?![\w'])"
_VERB = r"(?i:reply|answer|respond|say|output|return|write|print|label\s+it|classify\s+it\s+as|use)\b"
_VERB_WITH = rf"{_VERB}(?i:\s+with)?(?i:\s+(?:just|only|the\s+word|the\s+label))?\s*:?\s*"
_END = r"(?=\s*[;!?\n]|\.(?:\s|$)|$)"


def _label(name: str) -> str:
    return _LABEL.format(name=name)


_CONDITIONED = re.compile(
    rf"(?<![\w'-]){_label('label')}\s*[,:]?\s+(?i:if|when|whenever|in\s+case|for)\s+(?P<cond>.+?)"
    rf"(?=\s*,\s*(?i:and\s+|or\s+|but\s+|else\s+|otherwise\s+)?(?:{_VERB_WITH})?{_label('next')}"
    rf"|\s+(?i:and|or|else|otherwise)\s+{_label('after')}"
    rf"|\s*[;!?\n]|\.(?:\s|$)|$)")
_IF_FIRST = re.compile(
    rf"\b(?i:if|when|whenever)\s+(?P<cond>[^,;.\n]+?),?\s+(?i:then\s+)?{_VERB_WITH}{_label('label')}")
_DEFAULT = re.compile(
    rf"(?<![\w'-]){_label('label')}\s*,?\s+(?i:otherwise|else|if\s+not|for\s+(?:anything|everything|all)\s+else"
    rf"|in\s+(?:any|all)\s+other\s+cases|for\s+the\s+rest)\b"
    rf"|\b(?i:otherwise|else|if\s+not|in\s+(?:any|all)\s+other\s+cases)\s*,?\s*(?:{_VERB_WITH})?{_label('label2')}")
_LIST = re.compile(rf"(?<![\w'-])(?P<first>{_label('a')}(?:\s*,\s*{_Q}[A-Z][A-Z0-9_-]+{_Q})*)\s*,?\s*(?:or|/|\|)\s*"
                   rf"{_label('b')}")
_CUE = re.compile(r"\b(?:exactly one|only one|one word|single word|only with|only the word|just|one of|"
                  r"either)\b|\b(?:answer|reply|respond|output|return|say|classify|label)\b", re.IGNORECASE)
_CONSTANT = re.compile(
    rf"\b(?i:always)\s+{_VERB_WITH}{_label('a')}(?!\s*(?:,|or|/|\|)\s*{_Q}\w)"
    rf"|\b(?i:whatever|no\s+matter|regardless)\b[^.;\n]*?\b{_VERB_WITH}{_label('b')}(?!\s*(?:,|or|/|\|)\s*{_Q}\w)"
    rf"|\b{_VERB_WITH}{_label('c')}\s+(?i:to|for)\s+(?i:every|all|any|each|anything|everything)\b"
    rf"|\b{_VERB_WITH}{_label('d')}\s*,?\s+(?i:always|whatever|no\s+matter|regardless)\b")
# "Is the question about the timetable?", "whether the message concerns X": the topic of side-by-side labels.
_ABOUT = re.compile(r"\b(?:about|regarding|concerning|concerns|related\s+to|relates\s+to|to\s+do\s+with|"
                    r"on\s+the\s+(?:topic|subject)\s+of)\s+(?P<topic>[^.?!;\n]+)", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|isn'?t|aren'?t|doesn'?t|don'?t|never|neither)\b", re.IGNORECASE)
_POSITIVE = {"allow", "allowed", "yes", "true", "relevant", "on_topic", "on-topic", "ontopic", "pass", "ok",
             "safe", "accept", "valid", "in_scope", "in-scope", "related", "approve", "approved", "1"}
_NEGATIVE = {"block", "blocked", "no", "false", "irrelevant", "off_topic", "off-topic", "offtopic", "fail",
             "unsafe", "reject", "invalid", "out_of_scope", "out-of-scope", "unrelated", "deny", "refuse", "stop",
             "0"}


# Where a label may stand: a word in capitals or yes/no/true/false (the grammar then decides).
_LABEL_CUE = re.compile(r"\b[A-Z][A-Z0-9_-]*[A-Z0-9]\b|\b(?i:yes|no|true|false)\b")


@dataclass(frozen=True)
class Condition:
    """A label and the topic that earns it (`negated`: it is earned by *not* being about the topic)."""

    label: str
    topic: Topic
    negated: bool = False


@dataclass(frozen=True)
class LabelRule:
    """The labels an instruction names, in order, with what earns each.

    Example:
        >>> read_labels("Answer YES if it is about trains, NO otherwise.").labels
        ('YES', 'NO')
    """

    labels: tuple[str, ...]
    conditions: tuple[Condition, ...] = ()
    default: str | None = None
    constant: str | None = None
    topic: Topic | None = None  # for side-by-side labels: what the question should be about

    @property
    def positive(self) -> str:
        """The label earned by being about the topic (the first conditioned one, else by polarity)."""
        if self.conditions:
            return self.conditions[0].label
        return _polarity(self.labels)[0]

    @property
    def negative(self) -> str:
        """The label for the rest."""
        if self.default:
            return self.default
        others = [label for label in self.labels if label != self.positive]
        return others[0] if others else self.positive

    def verdict(self, question: str, vocab: Vocabulary | None = None, given: str = "") -> str:
        """The label for a question. `given`: tool descriptions and documents in the request, whose
        words join every topic (topic.py).

        Example:
            >>> read_labels("Answer YES if it is about trains, NO otherwise.").verdict("When is the next train?")
            'YES'
        """
        if self.constant:
            return self.constant
        if not self.conditions:
            topic = (self.topic or Topic("", ())).with_words(given) if given else self.topic
            if topic is None or not topic.words:  # no topic named: only a vocabulary can place the question
                on = vocab is not None and vocab.n_docs > 0 and vocab_topic(question, vocab)
                return self.positive if on else self.negative
            return self.positive if about(question, topic, vocab) else self.negative
        earned = []
        for cond in self.conditions:
            topic = cond.topic.with_words(given) if given else cond.topic
            if about(question, topic, vocab) != cond.negated:
                earned.append((share(question, topic, vocab) * (-1 if cond.negated else 1), cond.label))
        if earned:
            return max(earned, key=lambda e: e[0])[1]  # max keeps the first of equals: the prompt's order
        return self.negative


def vocab_topic(question: str, vocab: Vocabulary) -> bool:
    """With no topic named anywhere, the vocabulary handed to the client stands in as the topic.

    Example:
        >>> vocab_topic("How do I bake rye bread?",
        ...             Vocabulary(["rye bread bake", "bread oven", "rye flour", "train times"]))
        True
    """
    from helpers.offline.knowledge import TOPIC_THRESHOLD

    return vocab.topic_score(question) >= TOPIC_THRESHOLD


# Labels in lower case: quoted ("'hive'") anywhere in a sentence that says what to reply, or bare right
# after a reply verb and before its condition ("answer ferry if ...") or before "otherwise" (", other otherwise").
_QUOTED_WORD = re.compile(r"([\"'\u201c\u2018`])([A-Za-z][A-Za-z0-9_-]{0,30})([\"'\u201d\u2019`])(?![\w'])")
_BARE = re.compile(r"\b(?:reply|respond|answer|output|return|say|label\s+it|classify\s+it\s+as)\s+(?:with\s+)?"
                   r"(?P<a>[a-z][a-z0-9_-]+)(?=\s+(?:if|when|whenever)\b)"
                   r"|,\s*(?:and\s+)?(?P<b>[a-z][a-z0-9_-]+)(?=\s+(?:otherwise|else|in\s+all\s+other\s+cases"
                   r"|for\s+(?:anything|everything|all)\s+else)\b)", re.IGNORECASE)
_REPLY_WORDS = ("reply", "respond", "answer", "output", "return", "say", "label", "classify")
_NOT_A_LABEL = frozenset("only just briefly politely simply directly honestly kindly questions question it them".split())


def _capitalised(text: str) -> tuple[str, dict[str, str]]:
    """The text with its lower-case labels written in capitals, which the grammar reads, and the way back.

    Example:
        >>> _capitalised("Respond 'hive' when it concerns bees, and 'other' for anything else.")
        ("Respond 'HIVE' when it concerns bees, and 'OTHER' for anything else.", {'HIVE': 'hive', 'OTHER': 'other'})
    """
    back: dict[str, str] = {}
    if not near(text, _REPLY_WORDS) or not (_QUOTED_WORD.search(text) or _BARE.search(text)):
        return text, back  # fast scans first: megabytes of instructions often say nothing about replying

    def upper(word: str, bare: bool = False) -> str | None:
        # A quoted word, or one just before "otherwise", is a label even if it is a common word ('ok', other).
        low = word.lower()
        if word.isupper() or low in {"yes", "no", "true", "false"} or low in _NOT_A_LABEL \
                or (bare and (low in STOP_WORDS or low.endswith("ly"))):
            return None
        back.setdefault(word.upper(), word)
        return word.upper()

    out = []
    for sentence in re.split(r"(?<=[.!?;])(\s+)", text):
        if _CUE.search(sentence):
            sentence = _QUOTED_WORD.sub(lambda m: m.group(1) + (upper(m.group(2)) or m.group(2)) + m.group(3), sentence)
            sentence = _BARE.sub(lambda m: m.group(0)[: (m.start("a") if m.group("a") else m.start("b")) - m.start()]
                                 + (upper(m.group("a") or m.group("b"), bare=bool(m.group("a")))
                                    or m.group("a") or m.group("b")), sentence)
        out.append(sentence)
    return "".join(out), back


def read_labels(text: str) -> LabelRule | None:
    """The label rule of an instruction text, or None when it names no labels to reply with. Labels may be
    written in capitals, quoted in any case ("'hive'"), or bare in lower case where a label stands
    ("answer ferry if ..., other otherwise"); the answer gives them as written.

    Example:
        >>> rule = read_labels("Reply with exactly one word: ALLOW if the question is about cooking, BLOCK otherwise.")
        >>> rule.labels, rule.conditions[0].topic.words, rule.default
        (('ALLOW', 'BLOCK'), ('cooking',), 'BLOCK')
        >>> read_labels("Classify the question: answer ferry if it is about ferry tickets, other otherwise.").labels
        ('ferry', 'other')
    """
    if not text:
        return None
    capital, back = _capitalised(text)
    rule = _read_labels(capital)
    if rule is None or not back:
        return rule
    def as_written(label):
        return back.get(label, label) if label else label
    return LabelRule(tuple(as_written(x) for x in rule.labels),
                     tuple(Condition(as_written(c.label), c.topic, c.negated) for c in rule.conditions),
                     as_written(rule.default), as_written(rule.constant), rule.topic)


def _read_labels(text: str) -> LabelRule | None:
    labels: list[str] = []
    conditions: list[Condition] = []
    default = constant = None
    cued = near(text, _LABEL_CUE)
    for sentence in _sentences(cued):
        for match in _CONDITIONED.finditer(sentence):
            _add_condition(match.group("label"), match.group("cond"), text, sentence, labels, conditions)
        for match in _IF_FIRST.finditer(sentence):
            _add_condition(match.group("label"), match.group("cond"), text, sentence, labels, conditions)
        for match in _DEFAULT.finditer(sentence):
            default = default or match.group("label") or match.group("label2")
            labels.append(default)
        if (match := _CONSTANT.search(sentence)) and not constant:
            constant = next(g for g in match.groups() if g)
    # A condition with no topic of its own ("OFF_TOPIC when unrelated") is the label for the rest.
    for cond in [c for c in conditions if not c.topic.words]:
        conditions.remove(cond)
        default = default or cond.label
    if conditions and default is None and len(set(labels)) == 2:
        default = next(label for label in labels if label != conditions[0].label)
    labels = list(dict.fromkeys(labels))
    if constant and not labels:
        return LabelRule((constant,), constant=constant)
    if len(labels) >= 2 and (conditions or default):
        return LabelRule(tuple(labels), tuple(conditions), default, constant)
    side = _side_by_side(cued)
    if side is not None and conditions:
        # "Reply ALLOW or BLOCK. Say ALLOW when the question is about X": the pair, with its condition.
        pair = [label for label in side[0] if label != conditions[0].label]
        return LabelRule(tuple(dict.fromkeys(labels + side[0])), tuple(conditions), default or pair[0], constant)
    if side is None:
        return LabelRule((constant,), constant=constant) if constant else None
    pair, sentence = side
    phrases = [m.group("topic") for m in _ABOUT.finditer(near(text, _ABOUT))]
    if phrases:
        topic = Topic.named(" ".join(phrases), text, sentence)
    else:
        topic = Topic.named(text.replace(sentence, " "))
        topic = Topic(topic.phrase, tuple(w for w in topic.words if w not in {x.lower() for x in pair}))
    return LabelRule(tuple(pair), (), None, constant, topic)


def _add_condition(label: str, cond: str, text: str, sentence: str, labels: list, conditions: list) -> None:
    labels.append(label)
    if any(c.label == label for c in conditions):
        return
    about = _ABOUT.search(cond)
    topic = Topic.named(about.group("topic") if about else cond, text, sentence)
    conditions.append(Condition(label, topic, bool(_NEGATION.search(cond))))


def _side_by_side(text: str) -> tuple[list[str], str] | None:
    """Labels side by side after a reply cue ("exactly one word: ALLOW or BLOCK"), ordered (positive,
    negative), with the sentence they stand in."""
    for sentence in _sentences(text):
        if not _CUE.search(sentence):
            continue
        for match in _LIST.finditer(sentence):
            first = [x.strip(" \"'`\u201c\u201d\u2018\u2019") for x in match.group("first").split(",")]
            found = [x for x in first + [match.group("b")] if x]
            if any(x.lower() in STOP_WORDS - {"yes", "no"} for x in found) or len(set(found)) < 2:
                continue
            return list(_polarity(found)), sentence
    return None


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]


def _polarity(labels: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Labels ordered positive first when their words say which is which ("BLOCK or ALLOW" -> ALLOW, BLOCK)."""
    labels = tuple(labels)
    if len(labels) == 2 and (labels[0].lower() in _NEGATIVE or labels[1].lower() in _POSITIVE):
        return (labels[1], labels[0])
    return labels
