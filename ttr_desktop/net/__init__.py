"""Online tables: a headless server that runs the only engine, and clients that send
actions and receive their seat's view (docs/protocol.md)."""
