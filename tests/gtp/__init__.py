"""Tests of gogame.gtp."""
