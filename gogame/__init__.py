"""gogame: a Go tactical reading engine compiled with numba."""

__version__ = "0.1.0"
