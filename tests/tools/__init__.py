"""Tests of gogame.tools."""
