"""What makes Bazaar's fixed data (`make_tables.py`: the exchange cards, the wares, the prices). The
rules never import it."""
