"""What makes Crazymino's fixed data (`make_tables.py`: the tiles, the board, the multipliers) and
the pictures of its rules page (`pictures.py`). The rules never import them."""
