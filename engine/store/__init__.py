"""The run database: opening it, its writer lease, and its compact layout (docs/store.md)."""
