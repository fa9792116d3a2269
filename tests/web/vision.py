"""Colour-vision deficiency simulation of a screenshot, for the browser tests that check a
board reads without telling its colours apart.

The matrices are Machado, Oliveira and Fernandes, "A Physiologically-based Model for
Simulation of Color Vision Deficiency" (IEEE TVCG 15(6), 2009), at severity 1.0 (protanopia,
deuteranopia, tritanopia), applied to linear RGB as the paper does. Colour differences are
CIE76 distances in CIELAB (D65): about 2.3 is just noticeable, and two flat colours less
than about 10 apart are easily taken for each other by a child at a glance.
"""

from __future__ import annotations

import io

import numpy as np
from numpy.typing import NDArray
from PIL import Image

MACHADO: dict[str, NDArray[np.float64]] = {
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779],
                            [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}
"""The simulation matrix of each deficiency (linear RGB to linear RGB)."""


def load(png: bytes) -> NDArray[np.float64]:
    """A PNG (a Playwright screenshot) as an array of sRGB values in 0..1, shape (h, w, 3)."""
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.float64) / 255.0


def to_linear(srgb: NDArray[np.float64]) -> NDArray[np.float64]:
    """sRGB (0..1) to linear RGB."""
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def to_srgb(linear: NDArray[np.float64]) -> NDArray[np.float64]:
    """Linear RGB to sRGB (0..1), clipped to the gamut."""
    clipped = np.clip(linear, 0.0, 1.0)
    return np.where(clipped <= 0.0031308, clipped * 12.92, 1.055 * clipped ** (1 / 2.4) - 0.055)


def simulate(srgb: NDArray[np.float64], deficiency: str) -> NDArray[np.float64]:
    """How ``srgb`` (any shape ending in 3) looks with ``deficiency`` (a key of MACHADO)."""
    return to_srgb(to_linear(srgb) @ MACHADO[deficiency].T)


def lab(srgb: NDArray[np.float64]) -> NDArray[np.float64]:
    """sRGB (0..1, any shape ending in 3) to CIELAB under D65."""
    xyz = to_linear(srgb) @ np.array([[0.4124, 0.3576, 0.1805],
                                      [0.2126, 0.7152, 0.0722],
                                      [0.0193, 0.1192, 0.9505]]).T
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]),
                     200 * (f[..., 1] - f[..., 2])], axis=-1)


def delta_e(a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
    """The CIE76 difference of two sRGB colours."""
    return float(np.linalg.norm(lab(a) - lab(b)))


def ink_mask(srgb: NDArray[np.float64], size: int = 24) -> NDArray[np.bool_]:
    """The pixels of a small picture that stand out from its background (the colour of its
    border pixels) by lightness, resampled to ``size`` x ``size``: the drawn mark as a
    colour-blind eye still sees it, whatever its hue."""
    lightness = lab(srgb)[..., 0]
    border = np.concatenate([lightness[0], lightness[-1], lightness[:, 0], lightness[:, -1]])
    background = float(np.median(border))
    mask = np.abs(lightness - background) > 20.0
    image = Image.fromarray((mask * 255).astype(np.uint8))
    image = image.resize((size, size), Image.Resampling.BILINEAR)
    return np.asarray(image) > 127


def overlap(a: NDArray[np.bool_], b: NDArray[np.bool_]) -> float:
    """Intersection over union of two masks (1.0: the same mark)."""
    union = np.logical_or(a, b).sum()
    return float(np.logical_and(a, b).sum() / union) if union else 1.0
