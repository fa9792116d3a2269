"""The web app: a Starlette server with a JSON API, websockets, SQLite storage and pages.

``create_app(db_path, bot_delay)`` builds the ASGI app; ``dicegames serve`` runs it (see
``docs/web.md`` for using it and ``docs/web-api.md`` for the API).
"""

from dicegames.web.app import create_app

__all__ = ["create_app"]
