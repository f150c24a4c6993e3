"""The course FAQ as the later lessons use it, beside loading (helpers.ingest) and searching (helpers.search).

- vocabulary: the FAQ's words, handed to the offline model when the course makes its client (typo repair);
- writes: lesson 09's writing tool `add_faq_entry`, for the lessons after it (13, 14, 16);
- planted_index: an FAQ index with a few entries added, fitted once per content (lesson 14's measurements).
"""
