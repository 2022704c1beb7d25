"""Pure game rules: deciders, reducers and views. Imports only the standard library and msgspec."""
