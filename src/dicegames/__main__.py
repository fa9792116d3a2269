"""``python -m dicegames``: the same as the ``dicegames`` command."""

from dicegames.cli import main

raise SystemExit(main())
