"""tf domain (filled in below)."""
OPS = ()
