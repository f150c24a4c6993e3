"""A student's setup: settings, providers, the pinned files and the errors a student can fix.

- env: the variables of `.env.example`, read the same way by every helper;
- errors: ProviderError, a setup problem whose message says what happened and what to do;
- providers: each provider's preset (base URL, key, default model, API shapes) and the facts behind it;
- pinned: single files pinned to one commit (the ground truth, the OpenAI spec), fetched once (`make data`).

helpers.llm and helpers.doctor build on these; no lesson imports them directly.
"""
