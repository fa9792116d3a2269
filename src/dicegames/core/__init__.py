"""The engine: specs, states, chance, sessions, records and the match runner."""
