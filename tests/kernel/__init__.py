"""Tests of gogame.kernel (numba)."""
