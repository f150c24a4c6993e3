"""What a provider bills: token counts and prices, the two halves of helpers.cost (lesson 06).

- prices: what a token costs on a given model at a given moment, from genai-prices, never from the clock;
- tokens: the tokens of a request counted with a real BPE tokenizer, offline, as the offline model bills them.

helpers.cost re-exports what the lessons need from here.
"""
