"""Unit tests of talltales.core (a package, so pytest puts tests/ on sys.path for fixture_game)."""
