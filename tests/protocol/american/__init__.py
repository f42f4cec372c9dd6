"""Tests of the American card, matcher and engine."""
