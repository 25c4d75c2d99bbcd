"""Where captions come from: the names ``write_copy(backend=...)`` and ``--copy-backend``
take. Kept apart from the writers so the command line can offer them without loading them."""

GROUNDED = "grounded"
BACKENDS = (GROUNDED, "phrasebank", "llm", "auto")  # "phrasebank": the earlier name of grounded
