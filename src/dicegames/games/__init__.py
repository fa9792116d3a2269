"""Every game dicegames ships: importing this package registers them, one line each.

Each game folder declares its ``DEFINITION`` (:class:`~dicegames.core.definition.
GameDefinition`) in its ``__init__.py``; the lines below register them in the order the
command line and the web app list them. A game outside this package registers itself
through the entry-point group ``dicegames.games`` or the ``DICEGAMES_GAMES`` environment
variable instead (:mod:`dicegames.core.registry`).
"""

from dicegames.core.registry import register
from dicegames.games import extra, extra_meters, monza, petits_chevaux, shortcut

register(extra_meters.DEFINITION)
register(shortcut.DEFINITION)
register(petits_chevaux.DEFINITION)
register(monza.DEFINITION)
register(extra.DEFINITION)
