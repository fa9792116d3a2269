"""Every game dicegames ships: importing this package registers them, one line each."""

from dicegames.core.kernel import register_kernel
from dicegames.core.registry import register
from dicegames.games.extra import Extra
from dicegames.games.extra_meters import ExtraMeters
from dicegames.games.monza import Monza
from dicegames.games.petits_chevaux import PetitsChevaux
from dicegames.games.shortcut import Shortcut

register(ExtraMeters)
register(Shortcut)
register(PetitsChevaux)
register(Monza)
register(Extra)

# Compiled bulk kernels (core/kernel.py), imported on first use: "module:class".
register_kernel("extra-meters", "dicegames.games.extra_meters.kernel:ExtraMetersKernel")
register_kernel("shortcut", "dicegames.games.shortcut.kernel:ShortcutKernel")
register_kernel("petits-chevaux", "dicegames.games.petits_chevaux.kernel:PetitsChevauxKernel")
register_kernel("monza", "dicegames.games.monza.kernel:MonzaKernel")
register_kernel("extra", "dicegames.games.extra.kernel:ExtraKernel")
