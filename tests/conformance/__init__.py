"""The conformance suite every registered game (and every fixture game) must pass."""
