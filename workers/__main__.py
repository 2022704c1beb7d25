"""`python -m workers`: the supervised worker process."""

from workers.main import main

main()
