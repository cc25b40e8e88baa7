"""The settlement explorer: a web page for support and ops staff, served at ``/`` of the HTTP port.

The page (``static/``: HTML, CSS and hand-written JavaScript, no build step) calls the
Connect JSON endpoints like any client. Besides them it asks the server for two things the CLI
does too, so that both share one implementation: reading the tile notation of RULES.md
(``POST /explorer/notation``: one parser, its errors pointing at the same character) and
wording why a liable seat pays (``POST /explorer/why``: `rules_core.liability_words`).
"""
