"""Seed Lute: its own demo (languages and short stories), then a Spanish learner's words.

Runs in Lute's venv, before the server starts: writes the config (data and backups under
DATA), lets Lute's own start-up code load its demo, turns off backups (their notice shows
a file path), dismisses the demo banner, and records a few dozen Spanish terms from the
demo story "Aladino y la lámpara maravillosa" with translations and learning statuses
(1-5 learning, 99 well known), so the reader shows known, learning and unknown words.
Usage: python lute_seed.py DATA
"""

from __future__ import annotations

import sys
from pathlib import Path

CONFIG = """\
ENV: prod
DBNAME: lute.db
DATAPATH: {data}
BACKUP_PATH: {data}/backups
"""

# (term, translation, status)
TERMS = [
    ("Aladino", "Aladdin", 99),
    ("y", "and", 99),
    ("la", "the", 99),
    ("el", "the", 99),
    ("de", "of, from", 99),
    ("en", "in, on", 99),
    ("un", "a", 99),
    ("una", "a", 99),
    ("que", "that, which", 99),
    ("su", "his, her", 99),
    ("con", "with", 99),
    ("a", "to", 99),
    ("muy", "very", 99),
    ("por", "for, by", 99),
    ("los", "the", 99),
    ("casa", "house", 99),
    ("fruta", "fruit", 99),
    ("hombre", "man", 99),
    ("nombre", "name", 99),
    ("día", "day", 99),
    ("cada", "each, every", 99),
    ("madre", "mother", 5),
    ("ciudad", "city", 5),
    ("vivía", "lived (vivir)", 4),
    ("mercado", "market", 4),
    ("vez", "time, occasion", 4),
    ("muchacho", "boy", 3),
    ("extraño", "strange", 3),
    ("lejano", "distant, far-off", 2),
    ("sencilla", "simple, plain", 2),
    ("humilde", "humble", 2),
    ("alimento", "food", 1),
    ("extranjero", "foreigner; from abroad", 1),
]


def main(data: str) -> None:
    root = Path(data)
    (root / "backups").mkdir(parents=True, exist_ok=True)
    config = root / "config.yml"
    config.write_text(CONFIG.format(data=root), encoding="utf-8")

    from lute.app_factory import create_app, data_initialization
    from lute.db import db
    from lute.db.demo import Service as DemoService
    from lute.models.language import Language
    from lute.models.repositories import UserSettingRepository
    from lute.models.term import Term

    app = create_app(str(config), output_func=lambda _message: None)
    with app.app_context():
        data_initialization(db.session)
        settings = UserSettingRepository(db.session)
        settings.set_value("backup_enabled", False)
        settings.set_value("backup_warn", False)
        db.session.commit()
        DemoService(db.session).remove_load_demo_flag()
        DemoService(db.session).remove_flag()  # the "you are trying out the demo" banner
        spanish = db.session.query(Language).filter(Language.name == "Spanish").one()
        for text, translation, status in TERMS:
            term = Term(spanish, text)
            term.translation = translation
            term.status = status
            db.session.add(term)
        db.session.commit()


if __name__ == "__main__":
    main(sys.argv[1])
