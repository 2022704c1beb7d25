"""What makes Mondo's fixed data (`make_tiles.py`: the 136 tiles) and the pictures of its rules
page (`pictures.py`). The rules never import them."""
