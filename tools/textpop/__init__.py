"""textpop: fictional developer profiles whose free text is real public wording (see generate.py)."""
