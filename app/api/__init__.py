"""The HTTP edge: Litestar routes, the stream, the seat's socket, the lobby, pages, the refusals,
guards and tickets."""
