"""The shipped games, one package each; pyproject.toml lists them as ``talltales.games``
entry points, which is how the registry finds them."""
