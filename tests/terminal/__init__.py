"""Tests of terminal clients."""
