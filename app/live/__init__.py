"""Live news: the hub that passes each game's new events to its subscribers, and the listener of
Redis's news channels."""
