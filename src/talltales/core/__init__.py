"""The game core: protocol, match authority, records, content packs, scenarios."""
