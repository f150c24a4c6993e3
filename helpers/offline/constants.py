"""The offline model's name and address: the one definition that the model and the code that calls it share.

A module with no imports, so helpers.cost (pricing) and helpers.setup.providers (the presets) can name the offline
model without loading it (the wire format, the engine, httpx). Left out: everything else about the model.
"""

OFFLINE_MODEL = "offline-rules-v1"
OFFLINE_BASE_URL = "http://offline.invalid/v1"  # .invalid never resolves, so nothing can leak to a network
