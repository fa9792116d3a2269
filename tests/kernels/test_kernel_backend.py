"""The numba layer: numba's private ``_nrt`` option, and plain ``njit`` when it is refused.

``njit_uncounted`` compiles the hot loops with ``_nrt=False``, an option private to numba.
Within the tested versions it is trusted; another version is probed first, and a numba that
refuses it, when probed or when a function is decorated, gets plain ``njit``: one warning in
the log, the same results.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from dicegames.core import kernel_backend
from dicegames.core.kernel_backend import NUMBA_TESTED, _Backend, _uncounted_options


class _RefusingNumba:
    """A numba that refuses ``_nrt`` when compiling (``at="compile"``, the way numba checks
    options), when decorating (``at="decorate"``) or never; ``real`` compiles the rest."""

    def __init__(self, version: str, at: str, real: Any = None) -> None:
        self.__version__ = version
        self.at = at
        self.real = real
        self.decorated: list[dict[str, Any]] = []

    def njit(self, **options: Any) -> Callable[[Callable[..., Any]], Any]:
        self.decorated.append(options)
        if "_nrt" in options and self.at == "decorate":
            raise TypeError("njit() got an unexpected keyword argument '_nrt'")

        def decorate(fn: Callable[..., Any]) -> Any:
            if "_nrt" in options and self.at == "compile":
                def refused(*args: Any) -> Any:
                    raise KeyError("Unrecognized options: {'_nrt'}")
                return refused
            if self.real is not None:
                return self.real.njit(**{**options, "cache": False})(fn)
            return fn
        return decorate


def test_the_tested_versions_keep_the_option_without_a_probe() -> None:
    low, _ = NUMBA_TESTED
    numba = _RefusingNumba(f"{low[0]}.{low[1]}.0", at="compile")
    assert _uncounted_options(numba) == {"_nrt": False}
    assert numba.decorated == []  # trusted: nothing compiled to check


def test_an_untested_numba_that_refuses_the_option_gets_plain_njit(
        caplog: pytest.LogCaptureFixture) -> None:
    _, high = NUMBA_TESTED
    numba = _RefusingNumba(f"{high[0]}.{high[1]}.0", at="compile")
    with caplog.at_level(logging.WARNING, logger="dicegames.kernel"):
        assert _uncounted_options(numba) == {}
    assert [record.getMessage() for record in caplog.records if "_nrt" in
            record.getMessage()] != []
    accepting = _RefusingNumba("1.0.0", at="never")
    assert _uncounted_options(accepting) == {"_nrt": False}


def use_backend(monkeypatch: pytest.MonkeyPatch, backend: _Backend) -> None:
    """Make ``backend`` the loaded one (its names are not rebound)."""
    kernel_backend._backend()  # the real names bound first
    monkeypatch.setattr(kernel_backend._slots, "ready", backend)


def test_a_refusal_at_decoration_falls_back_once(monkeypatch: pytest.MonkeyPatch,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    numba = _RefusingNumba("0.99.0", at="decorate")
    backend = _Backend(numba, None, None, {"_nrt": False})
    use_backend(monkeypatch, backend)

    def add(a: int, b: int) -> int:
        return a + b

    with caplog.at_level(logging.WARNING, logger="dicegames.kernel"):
        first = kernel_backend.njit_uncounted(add)
        second = kernel_backend.njit_uncounted(add)
    assert first(2, 3) == second(2, 3) == 5
    assert backend.uncounted == {}
    assert len([r for r in caplog.records if "_nrt" in r.getMessage()]) == 1
    # Tried once with the option, then plain njit (cache and nogil kept) for both.
    assert numba.decorated == [{"cache": False, "nogil": True, "_nrt": False},
                               {"cache": False, "nogil": True},
                               {"cache": False, "nogil": True}]


def test_the_fallback_compiles_with_real_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    real = pytest.importorskip("numba")
    numba = _RefusingNumba("0.99.0", at="compile", real=real)
    backend = _Backend(numba, None, None, _uncounted_options(numba))
    assert backend.uncounted == {}
    use_backend(monkeypatch, backend)

    def total(values: Any) -> int:
        result = 0
        for value in values:
            result += value
        return result

    compiled = kernel_backend.njit_uncounted(total)
    assert isinstance(compiled, real.core.registry.CPUDispatcher)
    assert compiled(kernel_backend.array([1, 2, 3])) == 6


class _Config:
    CACHE_DIR = "theirs"


class _RecordingNumba:
    """Records numba's cache folder setting at each decoration."""

    __version__ = "0.68.1"

    def __init__(self) -> None:
        self.config = _Config()
        self.folders: list[tuple[str, dict[str, Any]]] = []

    def njit(self, **options: Any) -> Callable[[Callable[..., Any]], Any]:
        self.folders.append((self.config.CACHE_DIR, options))
        return lambda fn: fn


def test_kernels_are_decorated_in_the_keyed_folder_and_numba_is_left_as_found(
        monkeypatch: pytest.MonkeyPatch) -> None:
    numba = _RecordingNumba()
    use_backend(monkeypatch, _Backend(numba, None, "/keyed/dicegames-kernels-0", {"_nrt": False}))

    def one() -> int:
        return 1

    kernel_backend.njit(one)
    kernel_backend.njit_uncounted(one)
    kernel_backend.njit_inline(one)
    assert numba.folders == [
        ("/keyed/dicegames-kernels-0", {"cache": True, "nogil": True}),
        ("/keyed/dicegames-kernels-0", {"cache": True, "nogil": True, "_nrt": False}),
        ("/keyed/dicegames-kernels-0", {"cache": True, "nogil": True, "inline": "always"})]
    assert numba.config.CACHE_DIR == "theirs"
