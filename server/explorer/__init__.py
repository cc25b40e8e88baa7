"""The settlement explorer: a web page for support and ops staff, served at ``/`` of the HTTP port.

The page (``static/``: HTML, CSS and hand-written JavaScript, no build step) calls the
Connect JSON endpoints like any client. The one thing it asks of the server besides them is
reading the tile notation of RULES.md (``POST /explorer/notation``), so the page and the CLI
share one parser and its errors point at the same character.
"""
