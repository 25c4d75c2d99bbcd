"""Where captions come from: the names ``write_copy(backend=...)`` and ``--copy-backend``
take: names only, kept apart from the writers."""

GROUNDED = "grounded"
BACKENDS = (GROUNDED, "phrasebank", "llm", "auto")  # "phrasebank": the earlier name of grounded
