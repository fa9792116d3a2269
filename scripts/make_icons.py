"""Draw the installed app's icons: the favicon's die (three pips, the first one red) as PNGs
at the sizes installers ask for, into ``src/dicegames/web/static/icons/``.

    python scripts/make_icons.py          # write the icons
    python scripts/make_icons.py --check  # exit 1 when a written icon differs from a drawn one

Each icon is drawn at four times its size and scaled down (smooth edges without an SVG
renderer). ``any`` icons show the die on a transparent ground; ``maskable`` ones (which a
phone cuts to its own shape: circle, squircle...) on the page's warm ground, the die inside
the central safe zone (80 % of the side). The web app manifest
(``static/manifest.webmanifest``) lists them; ``tests/web/test_pwa.py`` checks they are real
PNGs of the sizes it says.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from PIL import Image, ImageDraw

ICONS = Path(__file__).resolve().parents[1] / "src/dicegames/web/static/icons"

SIZES = (("icon-192.png", 192, False), ("icon-512.png", 512, False),
         ("maskable-192.png", 192, True), ("maskable-512.png", 512, True),
         ("apple-touch-icon.png", 180, True))
"""File name, side in pixels, and whether it is full-bleed (maskable, or Apple's touch icon,
which iOS rounds itself and shows on black where transparent)."""

GROUND = (247, 244, 236, 255)   # the page's --bg
FACE = (255, 253, 246, 255)     # the favicon's die face
EDGE = (51, 51, 51, 255)
RED = (221, 51, 51, 255)
PIP = (34, 34, 34, 255)
SCALE = 4


def draw(side: int, full_bleed: bool) -> Image.Image:
    """One icon ``side`` pixels square (see the module docstring)."""
    big = side * SCALE
    image = Image.new("RGBA", (big, big), GROUND if full_bleed else (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    die = big * (0.6 if full_bleed else 0.9)  # maskable: within the 80 % safe circle
    left = (big - die) / 2
    unit = die / 36  # the favicon's 36-unit die
    pen.rounded_rectangle((left, left, left + die, left + die), radius=7 * unit, fill=FACE,
                          outline=EDGE, width=max(1, round(2 * unit)))
    for (x, y), colour in (((9, 9), RED), ((18, 18), PIP), ((27, 27), PIP)):
        cx, cy, r = left + x * unit, left + y * unit, 3.6 * unit
        pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
    return image.resize((side, side), Image.Resampling.LANCZOS)


def png(image: Image.Image) -> bytes:
    """``image`` as PNG bytes (no metadata, so the same drawing gives the same file)."""
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    """Write (or ``--check``) every icon of :data:`SIZES`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, write nothing")
    args = parser.parse_args(argv)
    ICONS.mkdir(parents=True, exist_ok=True)
    stale = []
    for name, side, full_bleed in SIZES:
        data = png(draw(side, full_bleed))
        path = ICONS / name
        if args.check:
            if not path.is_file() or path.read_bytes() != data:
                stale.append(name)
        else:
            path.write_bytes(data)
            print(f"wrote {path} ({side}x{side}, {len(data)} bytes)")
    if stale:
        print(f"icons differ from the drawing: {', '.join(stale)} "
              "(run python scripts/make_icons.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
