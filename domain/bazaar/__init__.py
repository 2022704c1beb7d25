"""Bazaar (Sid Sackson), as played online: the rules engine, its views and its AI."""
