"""Make and seed a Wagtail site: a small town bakery's website with a journal.

Runs in Wagtail's venv, before the server starts. `wagtail start` makes the project (its
own template); the seed adds one page type a site developer would (a journal article:
date, intro, rich-text body, a lead image), migrates, creates the editor accounts, a few
generated images and the page tree — some pages published, some drafts, one waiting for
moderation — through Wagtail's own models and revisions. Update checks are off.
Usage: python wagtail_seed.py DATA PASSWORD
"""

from __future__ import annotations

import datetime as dt
import io
import os
import random
import subprocess
import sys
from pathlib import Path

ARTICLE_MODEL = '''

from django.db import models as _models
from wagtail.admin.panels import FieldPanel
from wagtail.fields import RichTextField


class ArticlePage(Page):
    """A journal article (added for the shotsmith real-apps corpus)."""

    date = _models.DateField("Post date")
    intro = _models.CharField(max_length=250)
    body = RichTextField(blank=True)
    lead_image = _models.ForeignKey(
        "wagtailimages.Image", null=True, blank=True, on_delete=_models.SET_NULL, related_name="+"
    )

    content_panels = Page.content_panels + [
        FieldPanel("date"), FieldPanel("intro"), FieldPanel("lead_image"), FieldPanel("body"),
    ]
    parent_page_types = ["home.HomePage"]
'''

SETTINGS = """

# shotsmith real-apps corpus: no network at run time.
WAGTAIL_ENABLE_UPDATE_CHECK = False
WAGTAIL_SITE_NAME = "Crumb & Co. Bakery"
WAGTAILADMIN_BASE_URL = "http://127.0.0.1"
"""

ARTICLES = [
    (
        "Our sourdough starter turns ten",
        "2025-05-02",
        "Meet Doris, the starter behind every loaf.",
        "<p>Ten years ago our head baker, Ines, mixed flour and water in a jam jar. That jar — "
        "Doris — has raised every sourdough loaf we have sold since.</p><h2>How we feed her</h2>"
        "<ul><li>Twice a day, 1:1 flour and water</li><li>Rye on Mondays</li></ul>",
        True,
    ),
    (
        "Summer menu: apricot and almond tarts",
        "2025-06-10",
        "Seasonal bakes for the warm months.",
        "<p>Apricots from the Kentish orchards arrive this week, and with them our summer "
        "menu.</p>",
        True,
    ),
    (
        "Bread-making classes are back",
        "2025-06-18",
        "Saturday mornings, eight places per class.",
        "<p>Learn to shape, score and bake a sourdough loaf. Aprons and coffee provided.</p>",
        True,
    ),
    (
        "We're hiring: weekend counter staff",
        "2025-06-25",
        "Two weekend roles, starting in July.",
        "<p>Love bread and people? Send us a note.</p>",
        False,
    ),
    (
        "Behind the scenes: a baker's 4 am",
        "2025-07-01",
        "What happens before the doors open.",
        "<p>Ovens on at four, first bake out at six.</p>",
        None,
    ),
]

PAGES = [
    ("About us", "The story of Crumb & Co.", True),
    ("Visit", "Opening hours and directions.", True),
    ("Wholesale", "Bread for cafés and restaurants.", False),
]


def run(*argv: str, cwd: Path) -> None:
    subprocess.run(argv, cwd=cwd, check=True)


def image_bytes(seed: int) -> bytes:
    from PIL import Image, ImageDraw, ImageFilter

    rng = random.Random(seed)
    base = [(196, 140, 82), (231, 196, 140), (150, 96, 56), (240, 220, 190)][seed % 4]
    image = Image.new("RGB", (1200, 800), base)
    draw = ImageDraw.Draw(image)
    for _ in range(9):
        x, y, r = rng.randint(0, 1200), rng.randint(0, 800), rng.randint(80, 260)
        tone = tuple(max(0, min(255, c + rng.randint(-60, 40))) for c in base)
        draw.ellipse([x - r, y - r * 0.7, x + r, y + r * 0.7], fill=tone)
    image = image.filter(ImageFilter.GaussianBlur(6))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=80)
    return out.getvalue()


def main(data: str, password: str) -> None:
    root = Path(data)
    root.mkdir(parents=True, exist_ok=True)
    site = root / "bakery"
    bin_dir = Path(sys.executable).parent
    site.mkdir()
    run(str(bin_dir / "wagtail"), "start", "bakery", str(site), cwd=root)
    (site / "home" / "models.py").open("a").write(ARTICLE_MODEL)
    (site / "bakery" / "settings" / "base.py").open("a").write(SETTINGS)
    run(sys.executable, "manage.py", "makemigrations", "home", cwd=site)
    run(sys.executable, "manage.py", "migrate", "--noinput", cwd=site)

    sys.path.insert(0, str(site))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bakery.settings.dev")
    import django

    django.setup()
    from django.contrib.auth.models import Group, User
    from django.core.files.images import ImageFile
    from home.models import ArticlePage, HomePage
    from wagtail.images.models import Image
    from wagtail.models import Site

    admin = User.objects.create_superuser(
        "ines", "ines@crumb.example", password, first_name="Ines", last_name="Duarte"
    )
    editor = User.objects.create_user(
        "tom", "tom@crumb.example", password, first_name="Tom", last_name="Reyes"
    )
    editor.groups.add(Group.objects.get(name="Editors"))
    moderator = User.objects.create_user(
        "priya", "priya@crumb.example", password, first_name="Priya", last_name="Shah"
    )
    moderator.groups.add(Group.objects.get(name="Moderators"))

    images = []
    for number, title in enumerate(
        ["Sourdough loaves", "Apricot tarts", "Bread class", "Counter at opening", "Ovens at dawn"]
    ):
        image = Image(title=title, uploaded_by_user=admin)
        image.file = ImageFile(
            io.BytesIO(image_bytes(number)), name=f"{title.lower().replace(' ', '-')}.jpg"
        )
        image.save()
        images.append(image)

    home = HomePage.objects.get(depth=2)
    home.title = "Crumb & Co. Bakery"
    home.save_revision(user=admin).publish()
    site_obj = Site.objects.get(is_default_site=True)
    site_obj.site_name = "Crumb & Co. Bakery"
    site_obj.save()

    for title, _intro, live in PAGES:
        page = HomePage(title=title, live=False)
        home.add_child(instance=page)
        revision = page.save_revision(user=admin)
        if live:
            revision.publish(user=admin)

    for number, (title, date, intro, body, state) in enumerate(ARTICLES):
        page = ArticlePage(
            title=title,
            date=dt.date.fromisoformat(date),
            intro=intro,
            body=body,
            lead_image=images[number],
            live=False,
        )
        home.add_child(instance=page)
        author = admin if number % 2 == 0 else editor
        revision = page.save_revision(user=author)
        if state is True:
            revision.publish(user=admin)
        elif state is None:  # submitted to the default moderation workflow
            workflow = page.get_workflow()
            if workflow:
                workflow.start(page, editor)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
