"""Tests of gogame.play."""
