"""A made-up development set in the style of user-contributed requests (issue 26, generalisation).

BFCL's public description of its "live" categories (the BFCL V2 "Live" blog post) says they differ from the tidy
benchmark English the rules were tuned on: real users' wording (lower case, no question mark, "pls", "hey can u",
key=value fragments), longer API documentation (camelCase and snake_case names, "Default: ..." in prose, enum lists
in the schema and in the description, format hints, units, nested objects), more functions per request, several
languages, and a system message before the user's turn. This set is written from that description only, never
from a live case, in ten domains no lesson, no BFCL non-live case and no other development set uses: a pottery
kiln studio, a climbing gym, a tailoring shop, a piano tuner, allotment plots, a subtitling service, a chimney
sweep, a board-game café, an e-scooter fleet and a sailing dinghy club.

`TOOLSETS` maps a set's name to its functions, in BFCL's form (what `bfcl_data.to_tool` turns into an OpenAI
tool). `CASES` holds (tool set name, messages, answers): the answers in BFCL's form, a list of
{function: {parameter: [allowed values]}}, "" among the allowed values of an optional parameter that may be left
out. test_style_dev.py sends each through the real openai SDK on both APIs and scores it with bfcl_check.
"""


def fn(name, description, properties, required=()):
    """One function as API docs describe it: JSON-schema types, `required` listed."""
    return {"name": name, "description": description,
            "parameters": {"type": "dict", "properties": properties, "required": list(required)}}


def s(description, **more):
    return {"type": "string", "description": description, **more}


def i(description, **more):
    return {"type": "integer", "description": description, **more}


def n(description, **more):
    return {"type": "float", "description": description, **more}


def b(description, **more):
    return {"type": "boolean", "description": description, **more}


KILN = [
    fn("scheduleKilnFiring",
       "Schedules a firing in one of the studio's electric kilns. The studio runs bisque and glaze firings; a glaze "
       "firing needs pieces that were bisque fired first. Returns a firing id and the loading time.",
       {"kilnId": s("Identifier of the kiln, e.g. 'K1', 'K2' or 'RAKU'."),
        "firingType": s("Kind of firing. One of: bisque, glaze, raku.", enum=["bisque", "glaze", "raku"]),
        "cone": s("Target pyrometric cone, as written on the cone pack, e.g. '06', '04', '6'. Default: '6'."),
        "date": s("Day of the firing, format YYYY-MM-DD."),
        "slowCool": b("Whether to program a slow cooling segment. Default: false.")},
       ["kilnId", "firingType", "date"]),
    fn("get_kiln_status",
       "Returns the current temperature (in °C), the program segment and the time left for a kiln that is firing.",
       {"kiln_id": s("The kiln's identifier, for example 'K2'.")}, ["kiln_id"]),
    fn("log_glaze_recipe",
       "Saves a glaze recipe to the studio's shared book. Ingredients are given as percentages of the dry batch.",
       {"recipe_name": s("Name of the glaze as the potter calls it."),
        "ingredients": {"type": "array", "items": {"type": "string"},
                        "description": "Ingredient names, e.g. ['silica', 'kaolin', 'whiting']."},
        "atmosphere": s("Firing atmosphere the glaze is meant for. Allowed values: 'oxidation', 'reduction'. "
                        "Default: 'oxidation'.", enum=["oxidation", "reduction"])},
       ["recipe_name", "ingredients"]),
]

CLIMB = [
    fn("book_belay_class",
       "Books a place on a belay or climbing class at the gym. Class levels: 'intro' (never climbed), 'lead' "
       "(already top-rope certified), 'kids' (ages 6-12).",
       {"level": s("Class level.", enum=["intro", "lead", "kids"]),
        "date": s("The class date in YYYY-MM-DD format."),
        "participants": i("Number of people to book for. Default: 1."),
        "shoe_size_eu": n("Rental shoe size in EU sizing, if shoes are needed. Optional.")},
       ["level", "date"]),
    fn("getRouteSetting",
       "Lists the routes set on a wall of the gym, with their grades and the setter's name.",
       {"wall": s("The wall's name: 'cave', 'slab', 'overhang' or 'comp'.", enum=["cave", "slab", "overhang", "comp"]),
        "minGrade": s("Lowest grade to include, French scale, e.g. '6a'. Optional."),
        "maxGrade": s("Highest grade to include, French scale, e.g. '7b'. Optional.")},
       ["wall"]),
    fn("freeze_membership",
       "Pauses a climbing membership for a number of weeks, e.g. for an injury or travel. Billing stops while frozen.",
       {"member_id": s("Membership number, looks like 'CLB-00123'."),
        "weeks": i("How many weeks to freeze the membership for, 1 to 12."),
        "reason": s("Why it is frozen.", enum=["injury", "travel", "other"])},
       ["member_id", "weeks"]),
]

TAILOR = [
    fn("create_alteration_order",
       "Creates an alteration order at the tailor's. Each order is for one garment. Prices depend on the garment "
       "and the alteration.",
       {"garment": s("The garment. One of 'trousers', 'jacket', 'dress', 'shirt', 'coat'.",
                     enum=["trousers", "jacket", "dress", "shirt", "coat"]),
        "alteration": s("What to change, e.g. 'hem', 'take in waist', 'shorten sleeves'."),
        "customer_name": s("The customer's full name."),
        "express": b("Express service (ready in 24 hours, extra charge). Default: False."),
        "measurements": {"type": "dict", "description": "Target measurements in centimetres, where needed.",
                         "properties": {"inseam_cm": n("Inside leg length in cm."),
                                        "waist_cm": n("Waist in cm.")}}},
       ["garment", "alteration", "customer_name"]),
    fn("getOrderStatus",
       "Looks up an alteration order by its number and returns its status and the pick-up date.",
       {"orderNumber": s("The order number printed on the ticket, e.g. 'T-4471'.")}, ["orderNumber"]),
    fn("quote_fabric_cost",
       "Quotes the cost of a length of fabric from the shop's stock.",
       {"fabric": s("Fabric name, e.g. 'wool flannel', 'linen', 'tweed'."),
        "metres": n("Length needed, in metres."),
        "currency": s("ISO 4217 currency code for the quote. Default: 'GBP'.", enum=["GBP", "EUR", "USD"])},
       ["fabric", "metres"]),
]

PIANO = [
    fn("book_piano_tuning",
       "Books a piano tuner's visit. The tuner needs the piano type and the address. Tuning to a pitch other than "
       "A=440 Hz takes longer.",
       {"piano_type": s("Type of piano: upright, grand, or digital (digital pianos are not tuned, only serviced).",
                        enum=["upright", "grand", "digital"]),
        "address": s("Street address of the visit, e.g. '12 Elm Row, Leith'."),
        "date": s("Date of the visit (YYYY-MM-DD)."),
        "pitch_hz": i("Reference pitch for A4 in hertz. Default: 440.")},
       ["piano_type", "address", "date"]),
    fn("estimate_pitch_raise",
       "Estimates whether a pitch raise is needed before fine tuning, from how far below pitch the piano is, in "
       "cents, and how many years since it was last tuned.",
       {"cents_flat": n("How many cents below A=440 the piano measures."),
        "years_since_tuning": i("Years since the last tuning.")},
       ["cents_flat", "years_since_tuning"]),
]

ALLOTMENT = [
    fn("reserve_allotment_plot",
       "Puts a household on the allotment society's list for a plot. Plot sizes: 'full' (250 m²), 'half' (125 m²), "
       "'quarter'. Site names are the society's own (e.g. 'Hillside', 'Riverside').",
       {"site": s("The allotment site's name."),
        "plot_size": s("Size of plot wanted.", enum=["full", "half", "quarter"]),
        "household_name": s("Surname of the household applying."),
        "raised_beds": b("Whether the applicant needs a plot with raised beds (accessibility). Default: false.")},
       ["site", "plot_size", "household_name"]),
    fn("get_water_schedule",
       "Returns the watering rota of an allotment site for a week: which plot holder has the hose on which day.",
       {"site": s("The site's name."),
        "week_start": s("Monday of the week, formatted YYYY-MM-DD. Default: the current week.")},
       ["site"]),
    fn("report_pest",
       "Reports a pest sighting on a plot so that neighbours can be warned.",
       {"plot_number": i("The plot's number."),
        "pest": s("The pest seen. Known values: slugs, aphids, blight, rabbits, pigeons.",
                  enum=["slugs", "aphids", "blight", "rabbits", "pigeons"]),
        "severity": s("How bad it is: low, medium or high. Defaults to 'medium'.", enum=["low", "medium", "high"])},
       ["plot_number", "pest"]),
]

SUBTITLES = [
    fn("order_subtitles",
       "Orders subtitles for a video file already uploaded to the service. Turnaround depends on the length of the "
       "video and the number of target languages.",
       {"video_id": s("Identifier of the uploaded video, like 'vid_83kd'."),
        "target_language": s("Language of the subtitles as an ISO 639-1 code, e.g. 'es', 'de', 'fr'."),
        "format": s("Subtitle file format. Options: srt, vtt, ass. Default: srt.", enum=["srt", "vtt", "ass"]),
        "burn_in": b("Whether to burn the subtitles into the video instead of a separate file. Default: false.")},
       ["video_id", "target_language"]),
    fn("estimate_turnaround",
       "Estimates the turnaround in hours for a subtitle order from the video's length in minutes.",
       {"duration_minutes": n("Length of the video in minutes."),
        "languages": i("How many target languages. Default: 1.")},
       ["duration_minutes"]),
]

CHIMNEY = [
    fn("book_chimney_sweep",
       "Books a chimney sweep. A sweep certificate is issued after every visit for the insurance.",
       {"postcode": s("Postcode of the property, e.g. 'EH6 5JP'."),
        "appliance": s("What the chimney serves. Values: 'open_fire', 'wood_burner', 'multi_fuel', 'gas_fire'.",
                       enum=["open_fire", "wood_burner", "multi_fuel", "gas_fire"]),
        "date": s("Preferred date, in ISO format (YYYY-MM-DD)."),
        "cctv_survey": b("Add a CCTV survey of the flue. Default: false.")},
       ["postcode", "appliance", "date"]),
    fn("get_sweep_certificate",
       "Fetches the sweep certificate of a past visit as a PDF link.",
       {"booking_ref": s("The booking reference, e.g. 'SW-20931'.")}, ["booking_ref"]),
]

GAMES = [
    fn("reserve_game_table",
       "Reserves a table at the board-game café. Tables seat 2, 4, 6 or 8. A game can be held for the table from "
       "the library.",
       {"party_size": i("Number of people."),
        "date": s("Date of the visit, YYYY-MM-DD."),
        "time": s("Start time in 24-hour HH:MM format, e.g. '18:30'."),
        "game": s("Title of a game to hold for the table, as in the library list. Optional.")},
       ["party_size", "date", "time"]),
    fn("search_game_library",
       "Searches the café's game library by player count, play time and complexity.",
       {"players": i("Number of players the game must support."),
        "max_minutes": i("Longest acceptable play time, in minutes. Default: 60."),
        "complexity": s("Complexity band: light, medium or heavy.", enum=["light", "medium", "heavy"])},
       ["players"]),
]

SCOOTER = [
    fn("unlock_scooter",
       "Unlocks an e-scooter for a ride. The scooter's code is printed on its handlebar.",
       {"scooter_code": s("Six-character code of the scooter, e.g. 'QX4T9B'."),
        "ride_plan": s("Pricing plan: 'pay_as_you_go' or 'day_pass'. Default: 'pay_as_you_go'.",
                       enum=["pay_as_you_go", "day_pass"])},
       ["scooter_code"]),
    fn("report_scooter_issue",
       "Reports a problem with a scooter so that the fleet team can collect it.",
       {"scooter_code": s("Six-character code of the scooter."),
        "issue": s("Kind of problem. Must be one of: flat_tyre, brake, battery, damage, parked_badly.",
                   enum=["flat_tyre", "brake", "battery", "damage", "parked_badly"]),
        "location": {"type": "dict", "description": "Where the scooter is.",
                     "properties": {"lat": n("Latitude, decimal degrees."), "lon": n("Longitude, decimal degrees.")},
                     "required": ["lat", "lon"]}},
       ["scooter_code", "issue"]),
    fn("get_ride_history",
       "Returns the rider's past rides in a date range, newest first.",
       {"start_date": s("First day, YYYY-MM-DD."), "end_date": s("Last day, YYYY-MM-DD."),
        "limit": i("Maximum number of rides to return. Default: 20.")},
       ["start_date", "end_date"]),
]

SAILING = [
    fn("book_dinghy",
       "Books one of the club's dinghies for a session on the loch. Club boats: 'Topper', 'Laser', 'RS Feva', "
       "'Wayfarer'. Members under 16 need an adult on the shore.",
       {"boat_class": s("The class of dinghy.", enum=["Topper", "Laser", "RS Feva", "Wayfarer"]),
        "date": s("Session date (format: YYYY-MM-DD)."),
        "session": s("Morning or afternoon session. Default: 'morning'.", enum=["morning", "afternoon"]),
        "crew": i("Number of people in the boat including the helm. Default: 1.")},
       ["boat_class", "date"]),
    fn("get_wind_forecast",
       "Gets the wind forecast for the club's loch: speed in knots, gusts and direction, for a day.",
       {"date": s("The day, YYYY-MM-DD."),
        "units": s("Speed units: 'knots', 'mph' or 'kmh'. Default: 'knots'.", enum=["knots", "mph", "kmh"])},
       ["date"]),
]

TOOLSETS = {"kiln": KILN, "climb": CLIMB, "tailor": TAILOR, "piano": PIANO, "allotment": ALLOTMENT,
            "subtitles": SUBTITLES, "chimney": CHIMNEY, "games": GAMES, "scooter": SCOOTER, "sailing": SAILING}


def user(text):
    return [{"role": "user", "content": text}]


def sys_user(system, text):
    return [{"role": "system", "content": system}, {"role": "user", "content": text}]


ASSISTANT = "You are a helpful assistant. Use the tools when they help. Today is 2026-05-04."
STUDIO = "You work the front desk of Clay Corner pottery studio. Be brief and friendly, and always confirm bookings."

CASES = [
    # --- kiln ---------------------------------------------------------------------------------------------------
    ("kiln", user("hey can u book a bisque firing in K2 on 2026-05-12 pls"),
     [{"scheduleKilnFiring": {"kilnId": ["K2"], "firingType": ["bisque"], "date": ["2026-05-12"], "cone": [""],
                              "slowCool": ["", False]}}]),
    ("kiln", user("schedule firing kilnId=K1 firingType=glaze date=2026-06-01 cone=6"),
     [{"scheduleKilnFiring": {"kilnId": ["K1"], "firingType": ["glaze"], "date": ["2026-06-01"],
                              "cone": ["6", ""], "slowCool": ["", False]}}]),
    ("kiln", sys_user(STUDIO, "how hot is k2 right now"),
     [{"get_kiln_status": {"kiln_id": ["K2", "k2"]}}]),
    ("kiln", user("whats the status of kiln K1"),
     [{"get_kiln_status": {"kiln_id": ["K1"]}}]),
    ("kiln", user("glaze firing in the RAKU kiln on 2026-07-03, cone 04, with slow cool"),
     [{"scheduleKilnFiring": {"kilnId": ["RAKU"], "firingType": ["glaze"], "date": ["2026-07-03"], "cone": ["04"],
                              "slowCool": [True]}}]),
    ("kiln", user("save my glaze 'Celadon Mist' with silica, kaolin and whiting, it's for reduction"),
     [{"log_glaze_recipe": {"recipe_name": ["Celadon Mist"], "ingredients": [["silica", "kaolin", "whiting"]],
                            "atmosphere": ["reduction"]}}]),
    ("kiln", user("Hola, ¿puedes programar una cocción bisque en el horno K1 para el 2026-05-20?"),
     [{"scheduleKilnFiring": {"kilnId": ["K1"], "firingType": ["bisque"], "date": ["2026-05-20"], "cone": [""],
                              "slowCool": ["", False]}}]),
    # --- climbing -----------------------------------------------------------------------------------------------
    ("climb", user("book an intro class for 2026-05-09 for 3 people"),
     [{"book_belay_class": {"level": ["intro"], "date": ["2026-05-09"], "participants": [3],
                            "shoe_size_eu": [""]}}]),
    ("climb", user("hi there! hope you're well :) could you book me on the lead class on 2026-05-16, "
                   "i need shoes size 42"),
     [{"book_belay_class": {"level": ["lead"], "date": ["2026-05-16"], "participants": ["", 1],
                            "shoe_size_eu": [42.0]}}]),
    ("climb", user("what routes are on the slab between 6a and 7a"),
     [{"getRouteSetting": {"wall": ["slab"], "minGrade": ["6a"], "maxGrade": ["7a"]}}]),
    ("climb", user("routes on the cave wall pls"),
     [{"getRouteSetting": {"wall": ["cave"], "minGrade": [""], "maxGrade": [""]}}]),
    ("climb", user("freeze membership CLB-00123 for 6 weeks, i broke my wrist (injury)"),
     [{"freeze_membership": {"member_id": ["CLB-00123"], "weeks": [6], "reason": ["injury", ""]}}]),
    ("climb", user("member_id: CLB-04410, weeks: 3, reason: travel"),
     [{"freeze_membership": {"member_id": ["CLB-04410"], "weeks": [3], "reason": ["travel"]}}]),
    ("climb", sys_user(ASSISTANT, "Können Sie einen Kinderkurs (kids) am 2026-06-06 für 2 Personen buchen?"),
     [{"book_belay_class": {"level": ["kids"], "date": ["2026-06-06"], "participants": [2],
                            "shoe_size_eu": [""]}}]),
    # --- tailor ---------------------------------------------------------------------------------------------------
    ("tailor", user("new order: trousers, hem, customer Priya Raman"),
     [{"create_alteration_order": {"garment": ["trousers"], "alteration": ["hem"],
                                   "customer_name": ["Priya Raman"], "express": ["", False],
                                   "measurements": [""]}}]),
    ("tailor", user("can you put in an order for tom okafor, jacket, shorten sleeves, express pls"),
     [{"create_alteration_order": {"garment": ["jacket"], "alteration": ["shorten sleeves"],
                                   "customer_name": ["tom okafor", "Tom Okafor"], "express": [True],
                                   "measurements": [""]}}]),
    ("tailor", user("where's my order T-4471"),
     [{"getOrderStatus": {"orderNumber": ["T-4471"]}}]),
    ("tailor", user("status of order number t-5002?"),
     [{"getOrderStatus": {"orderNumber": ["t-5002", "T-5002"]}}]),
    ("tailor", user("how much is 2.5 metres of linen"),
     [{"quote_fabric_cost": {"fabric": ["linen"], "metres": [2.5], "currency": ["", "GBP"]}}]),
    ("tailor", user("quote 3m wool flannel in EUR"),
     [{"quote_fabric_cost": {"fabric": ["wool flannel"], "metres": [3.0], "currency": ["EUR"]}}]),
    ("tailor", user("fabric=tweed metres=1.75 currency=USD"),
     [{"quote_fabric_cost": {"fabric": ["tweed"], "metres": [1.75], "currency": ["USD"]}}]),
    # --- piano --------------------------------------------------------------------------------------------------
    ("piano", user("book a tuning for my upright at 12 Elm Row, Leith on 2026-05-22"),
     [{"book_piano_tuning": {"piano_type": ["upright"], "address": ["12 Elm Row, Leith"], "date": ["2026-05-22"],
                             "pitch_hz": ["", 440]}}]),
    ("piano", user("grand piano tuning, address \"4 Bank St, Perth\", date 2026-06-10, tune to 442"),
     [{"book_piano_tuning": {"piano_type": ["grand"], "address": ["4 Bank St, Perth"], "date": ["2026-06-10"],
                             "pitch_hz": [442]}}]),
    ("piano", user("my piano is 30 cents flat and hasnt been tuned in 5 years, will it need a pitch raise"),
     [{"estimate_pitch_raise": {"cents_flat": [30.0], "years_since_tuning": [5]}}]),
    ("piano", sys_user(ASSISTANT, "cents_flat=12.5, years_since_tuning=2"),
     [{"estimate_pitch_raise": {"cents_flat": [12.5], "years_since_tuning": [2]}}]),
    # --- allotment ----------------------------------------------------------------------------------------------
    ("allotment", user("put the Okonjo household down for a half plot at Hillside"),
     [{"reserve_allotment_plot": {"site": ["Hillside"], "plot_size": ["half"], "household_name": ["Okonjo"],
                                  "raised_beds": ["", False]}}]),
    ("allotment", user("hi, we'd like a quarter plot at riverside with raised beds please, surname is Baird"),
     [{"reserve_allotment_plot": {"site": ["riverside", "Riverside"], "plot_size": ["quarter"],
                                  "household_name": ["Baird"], "raised_beds": [True]}}]),
    ("allotment", user("whos on the hose at Hillside this week"),
     [{"get_water_schedule": {"site": ["Hillside"], "week_start": [""]}}]),
    ("allotment", user("watering rota for Riverside, week starting 2026-05-11"),
     [{"get_water_schedule": {"site": ["Riverside"], "week_start": ["2026-05-11"]}}]),
    ("allotment", user("slugs everywhere on plot 14!! its really bad"),
     [{"report_pest": {"plot_number": [14], "pest": ["slugs"], "severity": ["high"]}}]),
    ("allotment", user("report aphids on plot 7"),
     [{"report_pest": {"plot_number": [7], "pest": ["aphids"], "severity": ["", "medium"]}}]),
    ("allotment", user("在7号地块发现了蚜虫 (aphids)，请报告"),
     [{"report_pest": {"plot_number": [7], "pest": ["aphids"], "severity": ["", "medium"]}}]),
    # --- subtitles ----------------------------------------------------------------------------------------------
    ("subtitles", user("order spanish subtitles (es) for vid_83kd"),
     [{"order_subtitles": {"video_id": ["vid_83kd"], "target_language": ["es"], "format": ["", "srt"],
                           "burn_in": ["", False]}}]),
    ("subtitles", user("video_id=vid_19ab target_language=de format=vtt"),
     [{"order_subtitles": {"video_id": ["vid_19ab"], "target_language": ["de"], "format": ["vtt"],
                           "burn_in": ["", False]}}]),
    ("subtitles", user("need french subs burned in on vid_77qq, format ass"),
     [{"order_subtitles": {"video_id": ["vid_77qq"], "target_language": ["fr"], "format": ["ass"],
                           "burn_in": [True]}}]),
    ("subtitles", user("how long would subtitles take for a 45 min video"),
     [{"estimate_turnaround": {"duration_minutes": [45.0], "languages": ["", 1]}}]),
    ("subtitles", user("turnaround for a 90 minute film in 3 languages?"),
     [{"estimate_turnaround": {"duration_minutes": [90.0], "languages": [3]}}]),
    ("subtitles", sys_user("Answer in the user's language.",
                           "Wie lange dauert die Untertitelung für ein Video von 20 Minuten?"),
     [{"estimate_turnaround": {"duration_minutes": [20.0], "languages": ["", 1]}}]),
    # --- chimney ------------------------------------------------------------------------------------------------
    ("chimney", user("book a sweep for the wood burner, postcode EH6 5JP, 2026-09-15"),
     [{"book_chimney_sweep": {"postcode": ["EH6 5JP"], "appliance": ["wood_burner"], "date": ["2026-09-15"],
                              "cctv_survey": ["", False]}}]),
    ("chimney", user("hey need my open fire swept on 2026-10-02 at G12 8QQ + a cctv survey"),
     [{"book_chimney_sweep": {"postcode": ["G12 8QQ"], "appliance": ["open_fire"], "date": ["2026-10-02"],
                              "cctv_survey": [True]}}]),
    ("chimney", user("can i get the certificate for booking SW-20931"),
     [{"get_sweep_certificate": {"booking_ref": ["SW-20931"]}}]),
    ("chimney", user("multi fuel stove sweep, 2026-11-20, postcode 'AB10 1XG'"),
     [{"book_chimney_sweep": {"postcode": ["AB10 1XG"], "appliance": ["multi_fuel"], "date": ["2026-11-20"],
                              "cctv_survey": ["", False]}}]),
    # --- games --------------------------------------------------------------------------------------------------
    ("games", user("table for 4 on 2026-05-15 at 19:00"),
     [{"reserve_game_table": {"party_size": [4], "date": ["2026-05-15"], "time": ["19:00"], "game": [""]}}]),
    ("games", user("can u reserve a table for six people 2026-05-30 18:30 and hold Wingspan for us"),
     [{"reserve_game_table": {"party_size": [6], "date": ["2026-05-30"], "time": ["18:30"], "game": ["Wingspan"]}}]),
    ("games", user("any light games for 5 players"),
     [{"search_game_library": {"players": [5], "max_minutes": ["", 60], "complexity": ["light"]}}]),
    ("games", user("games for 2 players under 30 minutes"),
     [{"search_game_library": {"players": [2], "max_minutes": [30], "complexity": [""]}}]),
    ("games", user("players=3, max_minutes=90, complexity=heavy"),
     [{"search_game_library": {"players": [3], "max_minutes": [90], "complexity": ["heavy"]}}]),
    # --- scooter ------------------------------------------------------------------------------------------------
    ("scooter", user("unlock QX4T9B"),
     [{"unlock_scooter": {"scooter_code": ["QX4T9B"], "ride_plan": ["", "pay_as_you_go"]}}]),
    ("scooter", user("unlock scooter qx4t9b with a day pass"),
     [{"unlock_scooter": {"scooter_code": ["qx4t9b", "QX4T9B"], "ride_plan": ["day_pass"]}}]),
    ("scooter", user("scooter ZK81PA has a flat tyre"),
     [{"report_scooter_issue": {"scooter_code": ["ZK81PA"], "issue": ["flat_tyre"], "location": [""]}}]),
    ("scooter", user("report scooter MM20LX, brake broken, it's at lat 55.953 lon -3.188"),
     [{"report_scooter_issue": {"scooter_code": ["MM20LX"], "issue": ["brake"],
                                "location": [{"lat": [55.953], "lon": [-3.188]}]}}]),
    ("scooter", user("show my rides from 2026-04-01 to 2026-04-30"),
     [{"get_ride_history": {"start_date": ["2026-04-01"], "end_date": ["2026-04-30"], "limit": ["", 20]}}]),
    ("scooter", user("last 5 rides between 2026-03-01 and 2026-03-31"),
     [{"get_ride_history": {"start_date": ["2026-03-01"], "end_date": ["2026-03-31"], "limit": [5]}}]),
    ("scooter", sys_user(ASSISTANT, "hola, desbloquea el patinete PL55RC por favor"),
     [{"unlock_scooter": {"scooter_code": ["PL55RC"], "ride_plan": ["", "pay_as_you_go"]}}]),
    # --- sailing ------------------------------------------------------------------------------------------------
    ("sailing", user("book a laser for 2026-06-13 afternoon"),
     [{"book_dinghy": {"boat_class": ["Laser"], "date": ["2026-06-13"], "session": ["afternoon"],
                       "crew": ["", 1]}}]),
    ("sailing", user("we want the wayfarer on 2026-07-04, 3 of us"),
     [{"book_dinghy": {"boat_class": ["Wayfarer"], "date": ["2026-07-04"], "session": ["", "morning"],
                       "crew": [3]}}]),
    ("sailing", user("can i get an rs feva on 2026-08-01 morning session pls"),
     [{"book_dinghy": {"boat_class": ["RS Feva"], "date": ["2026-08-01"], "session": ["morning", ""],
                       "crew": ["", 1]}}]),
    ("sailing", user("wind on 2026-06-13 in mph"),
     [{"get_wind_forecast": {"date": ["2026-06-13"], "units": ["mph"]}}]),
    ("sailing", user("whats the wind forecast for 2026-06-20"),
     [{"get_wind_forecast": {"date": ["2026-06-20"], "units": ["", "knots"]}}]),
    ("sailing", sys_user("You are the club's booking assistant. Members often sail a Topper in the morning.",
                         "book a wayfarer for 2026-06-27 afternoon, crew of 2"),
     [{"book_dinghy": {"boat_class": ["Wayfarer"], "date": ["2026-06-27"], "session": ["afternoon"],
                       "crew": [2]}}]),
    ("sailing", user("2026-07-11 wind forecast, units=kmh"),
     [{"get_wind_forecast": {"date": ["2026-07-11"], "units": ["kmh"]}}]),
]
