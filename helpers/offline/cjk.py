"""Text written without spaces between words (Chinese, Japanese): cut into pieces the rules can match.

English words come with spaces round them; "北京今天天气怎么样" ("what's the weather in Beijing today")
comes as one run of characters. The offline model cuts such a run in two steps:

1. the function words and question words (`FUNCTION_WORDS`: 的, 了, 吗, 怎么样, 今天, の, は, です ...),
   longest first, are cut out, as STOP_WORDS are dropped from English: "北京 | 天气";
2. what is left is kept whole when it is one or two characters long (most Chinese words are), and
   read as overlapping pairs of characters (bigrams) when longer: "获取指定城市" -> 获取 取指 指定 定城 城市.

So "天气" in a question meets "天气" in a tool's description ("获取指定城市的当前天气"), and the pieces of
a question that no tool text and no function word covers are its names: `names_in("北京今天天气怎么样",
tool_text)` -> ["北京"]. `is_cjk(text)` says whether a text is mostly written this way (the answer then
quotes the tools' output with the language's own punctuation).

Why bigrams and not a dictionary segmenter: the well-kept one for Chinese (jieba) ships a dictionary of
tens of megabytes and knows only Chinese; bigrams need no data, work the same for Japanese kanji and kana,
and are what search engines use for these languages when they have no dictionary (Lucene's CJK analyzer).
The price: a pair that straddles two words ("取指") is noise, and a name of three or more characters is
matched by its pairs, not as one word.

What it leaves out on purpose: Korean (written with spaces, so the English rules' word splitting
already fits it, though its particles are not removed), readings, and meaning: "气温" (temperature) does
not meet "温度" (temperature) any more than "warm" meets "hot".
"""

from __future__ import annotations

import re

# Runs of Han characters, kana and the prolonged-sound mark: the scripts written without spaces.
CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u30fc]+")

# Function words, question words, polite request words and time words of Chinese and Japanese: what a
# question says around its topic and names, as STOP_WORDS do for English. Longest first when cutting. A
# single character is listed only when it is seldom part of a name: 都 (in 成都) and 上 (in 上海) are not.
FUNCTION_WORDS = frozenset("""
的 了 着 吗 呢 吧 啊 呀 么 和 与 跟 及 或 或者 还是 是 在 有 没有 也 很 太
我 你 您 他 她 它 我们 你们 他们 这 那 这个 那个 这里 那里 哪里 哪个 什么 怎么 怎么样 怎样 如何 为什么 多少
请 请问 帮 帮我 帮忙 告诉 告诉我 一下 看看 想 想知道 知道 能 能否 可以 会 要 需要 查 查询 查一下 比较 对比 一些 一个
今天 明天 昨天 现在 目前 今日 等于 是多少 哦
の は が を に で と も へ や から まで より です ます でした ました ですか ますか か ね よ だ
どう どこ なに いつ だれ いくら どの どれ この その あの これ それ あれ 教えて ください 明日
""".split())
_BY_LENGTH = sorted(FUNCTION_WORDS, key=len, reverse=True)
_LONGEST = max(len(w) for w in FUNCTION_WORDS)


def is_cjk(text: str) -> bool:
    """True when most of the text's letters are Chinese or Japanese characters.

    Example:
        >>> is_cjk("北京今天天气怎么样？"), is_cjk("What's the weather in Beijing?")
        (True, False)
    """
    cjk = sum(len(run) for run in CJK_RUN.findall(text or ""))
    latin = len(re.findall(r"[A-Za-z]", text or ""))
    return cjk > 0 and cjk >= latin


def pieces(run: str) -> list[str]:
    """A run of characters with its function words cut out: the stretches left, in order.

    Example:
        >>> pieces("比较一下北京和上海的天气")
        ['北京', '上海', '天气']
    """
    out, current, i = [], "", 0
    while i < len(run):
        for size in range(min(_LONGEST, len(run) - i), 0, -1):
            if run[i:i + size] in FUNCTION_WORDS:
                if current:
                    out.append(current)
                current, i = "", i + size
                break
        else:
            current += run[i]
            i += 1
    if current:
        out.append(current)
    return out


def cjk_words(run: str) -> list[str]:
    """The words of a run of characters: each piece whole up to two characters, else its bigrams.

    Example:
        >>> cjk_words("获取指定城市的当前天气")
        ['获取', '取指', '指定', '定城', '城市', '当前', '前天', '天气']
    """
    out = []
    for piece in pieces(run):
        out += [piece] if len(piece) <= 2 else [piece[i:i + 2] for i in range(len(piece) - 1)]
    return out


def names_in(question: str, known: str = "") -> list[str]:
    """The pieces of a question's character runs that nothing in `known` (the tools' names and
    descriptions) covers: the things it names, in order. A piece of one character is no name.

    Example:
        >>> names_in("北京今天天气怎么样？", "获取指定城市的当前天气")
        ['北京']
    """
    covered = {w for run in CJK_RUN.findall(known) for w in cjk_words(run)}
    found: list[str] = []
    for run in CJK_RUN.findall(question):
        for piece in pieces(run):
            pairs = [piece] if len(piece) <= 2 else [piece[i:i + 2] for i in range(len(piece) - 1)]
            if len(piece) >= 2 and not set(pairs) & covered and piece not in found:
                found.append(piece)
    return found


def mark_names(question: str, known: str = "") -> str:
    """The question with its names (`names_in`) between quotation marks, which is how the argument rules
    (arguments.py) recognise a name in text that has no capital letters.

    Example:
        >>> mark_names("比较一下北京和上海的天气", "获取指定城市的当前天气")
        '比较一下“北京”和“上海”的天气'
    """
    for name in names_in(question, known):
        question = re.sub(rf"(?<!\u201c){re.escape(name)}(?!\u201d)", f"\u201c{name}\u201d", question, count=1)
    return question


def script_of(text: str) -> str:
    """"ja" for a text mostly in Japanese (it has kana), "zh" for one mostly in Chinese characters, else "".

    Example:
        >>> script_of("东京の天気は？"), script_of("北京今天天气怎么样"), script_of("Is it raining?")
        ('ja', 'zh', '')
    """
    if not is_cjk(text):
        return ""
    return "ja" if re.search(r"[\u3040-\u30ff]", text) else "zh"
