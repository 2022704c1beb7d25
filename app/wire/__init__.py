"""The seat's socket served below ASGI: the handshake and WebSocket frames read and written by this
process."""
