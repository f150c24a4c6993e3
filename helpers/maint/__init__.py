"""The course maintainers' tools; no lesson imports them.

- nbrun: run notebooks top to bottom in a fresh kernel and store tidy outputs (`make notebooks`).
- nbtidy: the tidy rules nbrun applies, and the check tests/test_notebook_hygiene.py runs.
- homework_notebooks: write the student homework notebooks from the solutions (`make homework-notebooks`).
- bench: input tokens, citations and dollars per answered question, technique by technique (`make bench`).
- bench_search: search hit rate and MRR, tuned and untuned, and the agent's citations (`make bench-search`).
"""
