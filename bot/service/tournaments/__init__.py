"""Tournaments, one package: the pure draw and table (``draw``), the use cases (``cases``),
going from round to round (``rounds``), the values they return (``views``), the outbox posts
(``announcements`` writes them, ``posts`` rebuilds them) and finished events (``history``)."""
