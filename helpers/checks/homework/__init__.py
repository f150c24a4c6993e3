"""The checks of the homework notebooks, one module per homework (per task in Part 2).

- hw01_search_and_rag: homework 01, tasks 1.1-1.5 (lessons 01 and 02);
- hw02_the_loop: homework 02, tasks 2.1-2.5 (lessons 03 and 04);
- hw03_prompts_and_guardrails: homework 03, tasks 3.1-3.4 (lesson 05);
- hw04_cost_and_safety: homework 04, tasks 4.1-4.4 (lessons 06 and 07);
- hw05_chat_and_tools: homework 05, tasks 5.1-5.3 (lessons 08, 09 and 10);
- hw06_frameworks_and_evaluation: homework 06, tasks 6.1-6.4 (lessons 11 and 12);
- hw07_approval: task 7.1, a pausing loop with a policy, approvals bound to arguments and a ledger (lesson 13);
- hw07_injection: task 7.2, a defence against planted instructions, on held-back documents (lesson 14);
- hw07_memory: task 7.3, a memory policy within a token budget (lesson 15);
- hw08_mcp: task 8.1, two MCP servers with a tool of the same name, and a write behind approval (lessons 13, 16);
- hw08_handoffs: task 8.2, a transfer beside a tool call, and a specialist handing back (lesson 17);
- hw09_plan_first: task 9.1, plan-then-execute as the capstone's defence, and its report (lesson 18).

helpers.checks re-exports the checks of homework 01-06; Part 2's notebooks (homework 07-09) import each check
from its module, since those bring in MCP, the frameworks and the injection cases.
"""
