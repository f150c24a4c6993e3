"""The course maintainers' tools; no lesson imports them.

- nbrun: run notebooks top to bottom in a fresh kernel and store tidy outputs (`make notebooks`).
- nbtidy: the tidy rules nbrun applies, and the check tests/test_notebook_hygiene.py runs.
- homework_notebooks: write the student homework notebooks from the solutions (`make homework-notebooks`).
- bench: input tokens, citations and dollars per answered question, technique by technique (`make bench`).
- bench_search: search hit rate and MRR, tuned and untuned, and the agent's citations (`make bench-search`).
- bench_offline: the offline model's BFCL v4 scorecard, every single-turn case on both APIs (`make bench-offline`).
- bfcl_data: the pinned bfcl-eval wheel, fetched and sha256-checked, and its cases and answers read from it.
- bfcl_check: an AST checker of tool calls against BFCL's possible answers, written from BFCL's rules.
- bench_memory: lesson 15's memory policies on one long conversation: tokens, dollars, follow-ups right
  (`make bench-memory`).
- bench_tests: the test suite timed: the slowest tests and units, and the totals (`make bench-tests`).
- eval_batch: lesson 12's agent evaluation on all 320 questions as Batch API jobs (`make eval-batch`).
- kernel_log: the kernel config that drops ipykernel's TCP warning from the course's kernels (`make install`).
- lab_settings: the JupyterLab settings override the course installs into .venv (widget state, `make install`).
- fork_provisioner: the kernel provisioner of make test's nbval run, which forks kernels from a warm server.
- warm_kernels: that server: ipykernel and the heavy libraries imported once, a kernel forked per request.
"""
