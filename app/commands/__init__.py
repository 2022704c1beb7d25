"""The command service: games as loaded (`Table`), creating and commanding them, seats, and the
ports to the layers below the edges."""
