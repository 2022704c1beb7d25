"""Players: accounts, their sessions and personal tokens, the tables where they meet, chat."""
