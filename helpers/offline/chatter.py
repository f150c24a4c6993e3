"""Requests that ask for no lookup at all: a greeting, chit-chat, a text to compose or translate, a question about
the assistant itself. No search and no data tool answers those; a real model replies from its own words.

`chat_kind(question)` is the kind, or None for a request that may need a tool:
- "greeting": the whole message greets ("yo whats up", "hiii 👋", "good evening :)", "Hola, ¿qué tal?", "Guten
  Morgen!", "你好！"), in English, Spanish, German, French, Italian, Portuguese, Chinese and Japanese;
- "chit-chat": talk about how things are, with nothing to look up ("how are you doing today?", "i'm so bored lol",
  "tell me something interesting", "what's the meaning of life?", "thanks for the chat");
- "about you": a question about the assistant ("are you a bot?", "who made you?", "what can u do?", "Wie heißt
  du?", "¿Eres una inteligencia artificial?", "你是谁？");
- "translate": a text to put into another language ("translate 'x' into Spanish", "¿Cómo se dice 'velero' en
  alemán?", "Übersetze bitte 'Prost' ins Englische", "把这句话翻译成英文");
- "compose": a text to write ("write me a short poem about rain", "Schreib mir ein Gedicht", "escribe un cuento").
  A composed text may need facts ("write a report on the varroa counts"): search_fit.py lets a search that holds
  what it is about be called, so only "compose" of the kinds is not a refusal on its own.

The word lists are everyday phrases of each language for greeting, asking how someone is and addressing the
assistant, about no subject and taken from no data set.

What it leaves out on purpose: a greeting or a chat phrase inside a longer request ("hi! where is my parcel
QX-1?" is a request, and is left to the other rules), and languages beyond those listed (Korean, Arabic, ...: their
greetings are read as words like any other).
"""

from __future__ import annotations

import re

# The whole message is one of these, with at most a name or "there", and any marks or emoji after.
_TAIL = r"(?:\s+(?:there|everyone|all|guys|folks|friend|mate|buddy|team))?[\W_]*$"
_GREETINGS = re.compile(
    r"^\W*(?:h+i+|hey+(?:\s+hey)?|hello+|hiya|howdy|yo|sup|greetings|morning|evening|good\s+(?:morning|afternoon|"
    r"evening|day|night)|hola|buen(?:os|as)\s+(?:d[ií]as|tardes|noches)|buenas|hallo|servus|moin|gr[üu](?:ß|ss)\s+"
    r"(?:gott|dich|euch)|guten\s+(?:morgen|tag|abend)|bonjour|bonsoir|salut|ciao|buongiorno|buonasera|ol[áa]|"
    r"bom\s+dia|boa\s+(?:tarde|noite))"
    r"(?:[\s,!.¿¡]+(?:how\s+are\s+(?:you|u)|how'?s\s+it\s+going|what'?s\s+up|whats\s+up|wassup|sup|qu[ée]\s+tal|"
    r"c[óo]mo\s+est[áa]s|wie\s+geht'?s|wie\s+geht\s+es\s+(?:dir|ihnen)|[çc]a\s+va|come\s+stai|tudo\s+bem)\??)?"
    + _TAIL, re.IGNORECASE)
_CJK_GREETINGS = re.compile(r"^\W*(?:你好|您好|嗨|哈喽|早上好|晚上好|下午好|大家好|こんにちは|こんばんは|おはよう(?:ございます)?|"
                            r"やあ)(?:呀|啊|吗|！|!|。|～|~|\s)*$")
_CHIT_CHAT = re.compile(
    r"^\W*(?:(?:and\s+)?how\s+(?:are|r)\s+(?:you|u|ya)(?:\s+(?:doing|today|doing\s+today|tonight))*|"
    r"how'?s\s+(?:it\s+going|your\s+day|life)|what'?s\s+up|whats\s+up|wassup|sup|how\s+have\s+you\s+been|"
    r"nice\s+to\s+meet\s+(?:you|u)|i'?m\s+(?:so\s+|really\s+|a\s+bit\s+|kinda\s+)?(?:bored|tired|sad|happy|"
    r"lonely|hungry|sleepy|stressed|excited)|(?:lol|lmao|haha+|hehe+|ha)+|"
    r"(?:haha+|lol|ok|okay|cool|great|awesome)?[\s,!.]*(?:that\s+was\s+(?:fun|great|nice)[\s,!.]*)?(?:thanks|thank\s+you)"
    r"\s+for\s+(?:the\s+)?(?:chat|talk|help)|tell\s+me\s+(?:a\s+joke|a\s+story|something\s+(?:interesting|funny|fun|"
    r"nice|cool))|what'?s\s+the\s+meaning\s+of\s+life|what\s+is\s+the\s+meaning\s+of\s+life|"
    r"(?:qu[ée]\s+tal|c[óo]mo\s+est[áa]s|wie\s+geht'?s|wie\s+geht\s+es\s+(?:dir|ihnen)|[çc]a\s+va|come\s+stai))"
    r"(?:\s+(?:lol|haha+|today|then))*[\W_]*$", re.IGNORECASE)
_CJK_CHIT_CHAT = re.compile(r"^\W*(?:你好吗|最近怎么样|你今天好吗|我好无聊|讲个笑话|给我讲个笑话|お元気ですか)[\W_]*$")
_ABOUT_YOU = re.compile(
    r"^\W*(?:(?:are|r)\s+(?:you|u)\s+(?:a|an|the)?\s*(?:real\s+)?(?:person|human|bot|robot|ai|machine|chat\s*bot|"
    r"computer|program|real|alive|sentient|conscious)\b|who\s+(?:are|r)\s+(?:you|u)\b|what\s+are\s+(?:you|u)\b|"
    r"who\s+(?:made|built|created|programmed|trained|designed)\s+(?:you|u)\b|what'?s\s+your\s+name|what\s+is\s+your\s+name|"
    r"what\s+(?:can|do)\s+(?:you|u)\s+do\b|what\s+(?:model|llm|version)\s+are\s+(?:you|u)\b|"
    r"tell\s+me\s+about\s+yourself|introduce\s+yourself|how\s+old\s+are\s+(?:you|u)\b|do\s+(?:you|u)\s+have\s+"
    r"(?:feelings|a\s+name)|"
    r"wer\s+bist\s+du|wie\s+hei(?:ß|ss)t\s+du|was\s+kannst\s+du|bist\s+du\s+(?:ein|eine)\b|"
    r"qui[ée]n\s+eres|c[óo]mo\s+te\s+llamas|qu[ée]\s+eres|qu[ée]\s+puedes\s+hacer|eres\s+(?:un|una)\b|"
    r"qui\s+es[-\s]tu|comment\s+tu\s+t'?appelles|es[-\s]tu\s+(?:un|une)\b)[^.!?]*[.!?]*\s*$", re.IGNORECASE)
_CJK_ABOUT_YOU = re.compile(r"^\W*(?:你是谁|你叫什么|你是什么|你能做什么|你会什么|你是机器人吗|你是人吗|介绍一下你自己|"
                            r"あなたは誰|あなたの名前|お名前は)")
_TRANSLATE = re.compile(
    r"^\W*(?:(?:can|could|would)\s+(?:you|u)\s+)?(?:please\s+|pls\s+)?(?:translate|translation\s+of)\b|"
    r"\bhow\s+(?:do\s+(?:you|i|u)|would\s+(?:you|i))\s+say\b.+\bin\s+[A-Za-z]+\s*\??\s*$|"
    r"\bwhat\s+is\b.+\bin\s+(?:english|spanish|german|french|italian|portuguese|chinese|japanese|korean|russian|"
    r"arabic|dutch|latin|greek)\s*\??\s*$|"
    r"^\W*(?:[¿¡]\s*)?(?:c[óo]mo\s+se\s+dice|traduce|traducir|[üu]bersetze?n?|wie\s+sagt\s+man|comment\s+dit[-\s]on|"
    r"tradu(?:is|isez)|come\s+si\s+dice|traduci)\b", re.IGNORECASE)
_CJK_TRANSLATE = re.compile(r"翻译|翻譯|怎么说|用(?:英|中|日|德|法|西班牙)(?:文|语)|翻訳")
_COMPOSE = re.compile(
    r"^\W*(?:(?:can|could|would)\s+(?:you|u)\s+)?(?:please\s+|pls\s+)?(?:write|compose|draft|pen|make\s+up|come\s+up\s+"
    r"with|create)\s+(?:me\s+|us\s+)?(?:a|an|some|my|the|\d+)\b|"
    r"^\W*(?:escr[íi]be(?:me)?|red[áa]cta(?:me)?|schreib(?:e)?|verfasse|[ée]cris|r[ée]dige|scrivi)\b", re.IGNORECASE)
_CJK_COMPOSE = re.compile(r"^\W*(?:请|請)?(?:帮我|幫我)?(?:写|寫|作)(?:一|个|首|篇|封|段)")


def chat_kind(question: str) -> str | None:
    """What kind of request that needs no lookup the question is (see the module), or None.

    Example:
        >>> chat_kind("hiii 👋"), chat_kind("are u a real person?"), chat_kind("Übersetze bitte 'Prost'")
        ('greeting', 'about you', 'translate')
        >>> chat_kind("write me a short poem about rain"), chat_kind("hi! where is my parcel QX-1?")
        ('compose', None)
    """
    text = question.strip()
    if not text:
        return None
    for kind, patterns in (("greeting", (_GREETINGS, _CJK_GREETINGS)), ("chit-chat", (_CHIT_CHAT, _CJK_CHIT_CHAT)),
                           ("about you", (_ABOUT_YOU, _CJK_ABOUT_YOU)), ("translate", (_TRANSLATE, _CJK_TRANSLATE)),
                           ("compose", (_COMPOSE, _CJK_COMPOSE))):
        if any(p.search(text) for p in patterns):
            return kind
    return None


def needs_no_lookup(question: str) -> bool:
    """Whether the request is one no tool serves on its own: a greeting, chit-chat, a question about the
    assistant, or a text to translate (a text to compose may need facts: see the module).

    Example:
        >>> needs_no_lookup("Wie heißt du?"), needs_no_lookup("Wie spät ist es in Berlin?")
        (True, False)
    """
    return chat_kind(question) in ("greeting", "chit-chat", "about you", "translate")
