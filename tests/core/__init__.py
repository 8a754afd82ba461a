"""Tests of gogame.core."""
