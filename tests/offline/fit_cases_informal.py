"""A second made-up development set for tool fit (issue 26): requests as people type them to a chat assistant, with
the kinds of tools real function lists hold: a search scoped by its description to one collection, a general web
search, a generic HTTP fetcher, and tools with long documentation.

Ten domains no lesson and no BFCL non-live case uses (a sailing club, a beekeepers' association, a pottery studio, a
climbing gym, a tool-lending library, a vineyard's cellar door, an escape-room venue, a piano-tuning service, an
allotment society, a tattoo studio), in informal English, Spanish, German and Chinese. Each request is one of:
- `fits`: a scoped search asked about its own collection, a general search asked a fact, an HTTP tool given an
  address, or a domain tool asked for its act, in words of its own;
- `greeting`, `chit-chat`, `write` (compose or translate a text), `about you` (a question about the assistant),
  `out of scope` (a question a scoped search's collection cannot hold, or no tool's topic at all): no tool fits,
  so no call is right.

`CASES` holds (tool set name, request, the tool that should be called or None, the kind), as fit_cases.py does;
test_tool_fit_informal.py asserts each.
"""

from made_up import tool


def _text(description, **more):
    return {"type": "string", "description": description, **more}


def _int(description, **more):
    return {"type": "integer", "description": description, **more}


# Tools any of the domains may be offered beside their own: a general web search and a generic HTTP fetcher.
WEB_SEARCH = tool("web_search",
                  "Search the internet for up-to-date information on any topic and return the top results with their "
                  "titles, links and snippets. Use this when the answer may have changed recently or is not known.",
                  ["query"], query=_text("The search terms."))
HTTP_GET = tool("http_get",
                "Sends an HTTP GET request to the given URL and returns the response status, headers and body as "
                "text. Follows redirects. Times out after 10 seconds. Use it to read a web page or call a REST "
                "endpoint that needs no authentication.",
                ["url"], url=_text("The full address to fetch, starting with http:// or https://."),
                headers={"type": "object", "description": "Optional extra request headers."})

SAILING = [
    tool("search_club_handbook",
         "Search the sailing club's handbook: membership rules, guest policy, dinghy and keelboat booking rules, "
         "safety procedures on the water, racing calendar and the bar's opening hours. Returns the matching "
         "paragraphs.",
         ["query"], query=_text("What to look for in the handbook.")),
    tool("book_dinghy",
         "Books one of the club's dinghies for a member for a date and a tide window.",
         ["member_id", "date"], member_id=_text("Membership number, e.g. 'SC-0412'."),
         date=_text("YYYY-MM-DD")),
]
BEES = [
    tool("search_hive_notes",
         "Search the beekeepers' association's shared hive inspection notes: queen sightings, brood patterns, "
         "varroa counts, swarming, feeding and honey harvests, by apiary and by hive.",
         ["query"], query=_text("Keywords to search the inspection notes for.")),
]
POTTERY = [
    tool("search_glaze_library",
         "Search the pottery studio's glaze library for recipes and test tiles: glaze name, colour, firing "
         "temperature, cone and surface (matte, gloss, satin).",
         ["query"], query=_text("Search terms, e.g. 'celadon cone 6'.")),
    tool("reserve_kiln_slot",
         "Reserves a shelf in the studio's next kiln firing for a member's pieces. Bisque and glaze firings run "
         "on different days; the studio confirms the slot by email.",
         ["firing", "shelves"], firing=_text("Which firing.", enum=["bisque", "glaze"]),
         shelves=_int("How many shelves the pieces need.")),
]
CLIMBING = [
    tool("search_gym_announcements",
         "Search the climbing gym's announcements: route resets, wall closures, competitions, youth club and "
         "belay courses.",
         ["query"], query=_text("What to search for.")),
    WEB_SEARCH,
]
TOOL_LIBRARY = [
    tool("search_catalogue",
         "Search the tool-lending library's catalogue of power tools, garden tools and ladders that members can "
         "borrow. Returns each item's name, condition and whether it is on loan.",
         ["query"], query=_text("Tool name or keywords.")),
    tool("reserve_item",
         "Reserves an item of the tool-lending library for pick-up. Members may hold at most three items at a "
         "time and keep each for up to seven days.",
         ["item_id", "pickup_date"], item_id=_text("The catalogue number of the item."),
         pickup_date=_text("YYYY-MM-DD")),
]
CELLAR = [
    tool("search_cellar_stock",
         "Search the vineyard's cellar-door stock list: wines by grape, vintage and price, with tasting notes.",
         ["query"], query=_text("Grape, vintage or wine name.")),
    HTTP_GET,
]
ESCAPE = [
    tool("book_escape_room",
         "Books a session at the escape-room venue. Rooms: 'The Lighthouse' (2-5 players, 60 minutes), 'Clockwork "
         "Vault' (4-8 players, 75 minutes) and 'Sunken Library' (2-4 players, 60 minutes). Sessions start on the "
         "hour from 10:00 to 21:00. Groups over eight must book two rooms. Payment is taken at the venue. A "
         "booking can be moved once, up to 24 hours before it starts. Children under 12 must play with an adult. "
         "Returns a booking code to show at the desk.",
         ["room", "date", "time", "players"],
         room=_text("The room to book.", enum=["The Lighthouse", "Clockwork Vault", "Sunken Library"]),
         date=_text("The day of the session, YYYY-MM-DD."), time=_text("The start time, HH:MM, on the hour."),
         players=_int("How many people will play, including children.")),
    WEB_SEARCH,
]
PIANO = [
    tool("schedule_piano_tuning",
         "Schedules a visit from a piano tuner at the customer's home. A standard tuning takes about an hour; a "
         "pitch raise for a piano left untuned for years takes two visits. Uprights and grands are both covered, "
         "digital pianos are not. The tuner calls the day before to confirm.",
         ["address", "date", "piano_type"],
         address=_text("Where the piano is."), date=_text("Preferred day, YYYY-MM-DD."),
         piano_type=_text("The kind of piano.", enum=["upright", "grand"])),
    HTTP_GET,
]
ALLOTMENT = [
    tool("search_plot_rules",
         "Search the allotment society's rules and notices: plot sizes, rent, the waiting list, bonfires, sheds, "
         "water troughs, keeping hens and the annual inspection.",
         ["query"], query=_text("What to look up in the rules.")),
    tool("report_plot_issue",
         "Reports a problem on an allotment plot to the site secretary: a broken tap, fly-tipping, a damaged "
         "fence, vandalism.",
         ["plot_number", "issue"], plot_number=_text("The plot number, e.g. '14B'."),
         issue=_text("What is wrong, in a sentence.")),
]
TATTOO = [
    tool("check_artist_availability",
         "Returns the free appointment slots of one of the tattoo studio's artists over the next four weeks. A "
         "consultation is needed before any piece over 10 cm, and deposits are non-refundable.",
         ["artist"], artist=_text("The artist's name.", enum=["Mara", "Jonas", "Li Wei"])),
    tool("search_studio_faq",
         "Search the tattoo studio's aftercare and booking FAQ: healing, cling film, swimming after a tattoo, "
         "deposits, touch-ups and age rules.",
         ["query"], query=_text("The customer's question, as keywords.")),
]

TOOLSETS = {"sailing": SAILING, "bees": BEES, "pottery": POTTERY, "climbing": CLIMBING, "tool library": TOOL_LIBRARY,
            "cellar": CELLAR, "escape": ESCAPE, "piano": PIANO, "allotment": ALLOTMENT, "tattoo": TATTOO}

FITS, GREETING, CHIT_CHAT, WRITE, ABOUT_YOU, OUT_OF_SCOPE = "fits", "greeting", "chit-chat", "write", "about you", \
    "out of scope"

CASES = [
    # --- a sailing club ---
    ("sailing", "hey can i bring a guest out on a keelboat this weekend?", "search_club_handbook", FITS),
    ("sailing", "what time does the bar close on fridays", "search_club_handbook", FITS),
    ("sailing", "book me a dinghy for 2026-07-04, member SC-0412", "book_dinghy", FITS),
    ("sailing", "yo whats up", None, GREETING),
    ("sailing", "whats the weather gonna be like in lisbon tomorrow", None, OUT_OF_SCOPE),
    ("sailing", "are you a real person or a bot?", None, ABOUT_YOU),
    ("sailing", "¿Cómo se dice 'velero' en alemán?", None, WRITE),
    # --- a beekeepers' association ---
    ("bees", "any varroa counts logged for the north apiary lately?", "search_hive_notes", FITS),
    ("bees", "did anyone spot the queen in hive 3?", "search_hive_notes", FITS),
    ("bees", "good evening :)", None, GREETING),
    ("bees", "who won the champions league final in 2019?", None, OUT_OF_SCOPE),
    ("bees", "write me a short poem about summer rain", None, WRITE),
    ("bees", "你是谁？", None, ABOUT_YOU),
    # --- a pottery studio ---
    ("pottery", "got any matte celadon glazes for cone 6?", "search_glaze_library", FITS),
    ("pottery", "reserve 2 shelves in the next bisque firing pls", "reserve_kiln_slot", FITS),
    ("pottery", "Hola, ¿qué tal?", None, GREETING),
    ("pottery", "i'm so bored today lol", None, CHIT_CHAT),
    ("pottery", "what's the exchange rate from euros to yen today?", None, OUT_OF_SCOPE),
    ("pottery", "translate 'the kiln is hot' into Spanish", None, WRITE),
    # --- a climbing gym (beside a general web search) ---
    ("climbing", "when is the next route reset on the bouldering wall?", "search_gym_announcements", FITS),
    ("climbing", "who was the first person to climb Everest without oxygen?", "web_search", FITS),
    ("climbing", "hiii 👋", None, GREETING),
    ("climbing", "what's your name?", None, ABOUT_YOU),
    ("climbing", "Schreib mir bitte ein Gedicht über Berge", None, WRITE),
    # --- a tool-lending library ---
    ("tool library", "do u have a hedge trimmer i can borrow?", "search_catalogue", FITS),
    ("tool library", "reserve item TL-208 for pickup on 2026-05-09", "reserve_item", FITS),
    ("tool library", "Guten Morgen!", None, GREETING),
    ("tool library", "tell me something interesting", None, CHIT_CHAT),
    ("tool library", "what's the capital of Peru?", None, OUT_OF_SCOPE),
    ("tool library", "who made you?", None, ABOUT_YOU),
    # --- a vineyard's cellar door (beside an HTTP fetcher) ---
    ("cellar", "what pinot noir vintages have you got and how much are they?", "search_cellar_stock", FITS),
    ("cellar", "can you fetch https://status.vineyard.example/api/orders/881 for me", "http_get", FITS),
    ("cellar", "how are you doing today?", None, CHIT_CHAT),
    ("cellar", "how tall is the eiffel tower?", None, OUT_OF_SCOPE),
    ("cellar", "Übersetze bitte 'Prost' ins Englische", None, WRITE),
    # --- an escape-room venue (a long description, beside a general web search) ---
    ("escape", "we're 6 people, can we do Clockwork Vault on 2026-03-21 at 19:00?", "book_escape_room", FITS),
    ("escape", "what's the population of Iceland right now?", "web_search", FITS),
    ("escape", "haha that was fun, thanks for the chat", None, CHIT_CHAT),
    ("escape", "what can u do?", None, ABOUT_YOU),
    ("escape", "write a riddle about a lighthouse for my party invite", None, WRITE),
    # --- a piano-tuning service (a long description, beside an HTTP fetcher) ---
    ("piano", "my upright at 9 Rose Street needs tuning, can someone come on 2026-02-12?",
     "schedule_piano_tuning", FITS),
    ("piano", "get the page at https://tuners.example/prices please", "http_get", FITS),
    ("piano", "buenas noches", None, GREETING),
    ("piano", "who wrote the moonlight sonata?", None, OUT_OF_SCOPE),
    ("piano", "¿Eres una inteligencia artificial?", None, ABOUT_YOU),
    # --- an allotment society ---
    ("allotment", "am i allowed to keep hens on my plot?", "search_plot_rules", FITS),
    ("allotment", "how long is the waiting list for a plot", "search_plot_rules", FITS),
    ("allotment", "the tap on plot 14B is broken, please report it", "report_plot_issue", FITS),
    ("allotment", "你好！", None, GREETING),
    ("allotment", "what's 15% of 80 dollars?", None, OUT_OF_SCOPE),
    ("allotment", "Wie heißt du?", None, ABOUT_YOU),
    # --- a tattoo studio ---
    ("tattoo", "can i go swimming a week after getting a tattoo?", "search_studio_faq", FITS),
    ("tattoo", "when is Jonas free?", "check_artist_availability", FITS),
    ("tattoo", "hey there, how's it going?", None, GREETING),
    ("tattoo", "北京今天天气怎么样？", None, OUT_OF_SCOPE),
    ("tattoo", "translate 'never give up' into Japanese for my tattoo", None, WRITE),
    ("tattoo", "what's the meaning of life?", None, CHIT_CHAT),
]
