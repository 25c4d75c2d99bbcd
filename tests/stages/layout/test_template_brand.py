"""Brand control in a template is honoured and checked.

A template's ``palette.accent`` and its own font files (``text.headline_font``,
``text.subtitle_font``) change the slides; a key no template knows (a typo), a font file
that is not there and a colour that is not one are errors naming what was wrong. Real
fonts, real Pillow rendering, the real CLI.
"""

from __future__ import annotations

import colorsys
import shutil
from pathlib import Path

import numpy as np
import pytest

import shotsmith as ss
from shotsmith import columns as C
from shotsmith.cli import main
from shotsmith.errors import TemplateError
from shotsmith.scene import Scene

from ...test_devices import captioned, raw_set

NOTO_SERIF_BOLD = "/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf"
ORANGE = "#e4572e"


def hue(rgb) -> float:
    r, g, b = (v / 255 for v in rgb[:3])
    return colorsys.rgb_to_hls(r, g, b)[0]


@pytest.fixture
def iphone_set(tmp_path: Path) -> Path:
    return raw_set(tmp_path / "trailhead", (1206, 2622), "iphone", count=2)


def test_the_templates_accent_colours_the_slides(iphone_set: Path):
    frame = captioned(iphone_set)  # the screenshots' accent is blue (#1e6ee6)
    planned = ss.plan_layout(frame, template={"palette": {"accent": ORANGE}})
    blue = ss.plan_layout(captioned(iphone_set))
    scene = Scene.from_dict(planned[C.LAYOUT_SCENE].iloc[0])
    image = np.asarray(ss.render_scene(scene))
    corner = image[20, 20]  # background, above the caption
    assert abs(hue(corner) - hue((0xE4, 0x57, 0x2E))) < 0.04, corner
    assert planned[C.LAYOUT_BACKGROUND].iloc[0] != blue[C.LAYOUT_BACKGROUND].iloc[0]
    assert planned[C.LAYOUT_CONTRAST].min() >= 4.5  # the captions stay legible on it


def test_a_font_file_in_the_template_draws_the_captions(tmp_path: Path, iphone_set: Path):
    layouts = tmp_path / "layouts"
    (layouts / "fonts").mkdir(parents=True)
    shutil.copy(NOTO_SERIF_BOLD, layouts / "fonts" / "Brand-Bold.ttf")
    (layouts / "brand.toml").write_text(
        'name = "brand"\n[text]\nheadline_font = "fonts/Brand-Bold.ttf"\n', encoding="utf-8"
    )
    planned = ss.plan_layout(captioned(iphone_set), template=layouts / "brand.toml")
    scene = Scene.from_dict(planned[C.LAYOUT_SCENE].iloc[0])
    headline, subtitle = scene.texts
    assert Path(headline.font) == (layouts / "fonts" / "Brand-Bold.ttf").resolve()
    assert "Inter" in Path(subtitle.font).name  # the subtitle keeps the template's family
    serif = np.asarray(ss.render_scene(scene))
    plain = np.asarray(
        ss.render_scene(Scene.from_dict(ss.plan_layout(captioned(iphone_set))[C.LAYOUT_SCENE][0]))
    )
    x, y, w, h = headline.box
    assert (serif[y : y + h, x : x + w] != plain[y : y + h, x : x + w]).any()


@pytest.mark.parametrize(
    "template, words",
    [
        ({"text": {"headline_szie": [0.05, 0.08]}}, ["'text.headline_szie'", "text.headline_size"]),
        ({"palete": {"rhythm": ["light"]}}, ["'palete'", "did you mean palette"]),
        ({"device": {"shaddow": {"blur": 0.1}}}, ["'device.shaddow'", "device.shadow"]),
        ({"device": {"shadow": {"blurr": 0.1}}}, ["'device.shadow.blurr'", "shadow.blur"]),
        ({"palette": {"acent": ORANGE}}, ["'palette.acent'", "did you mean palette.accent"]),
        ({"palette": {"accent": "brand-orange"}}, ["palette.accent 'brand-orange'", "#rrggbb"]),
        ({"palette": {"accent": "#12345g"}}, ["palette.accent '#12345g'", "not a colour"]),
        ({"text": {"headline_font": "fonts/Missing.otf"}}, ["'fonts/Missing.otf'", "no font"]),
        ({"text": {"subtitle_family": "Helvetica Neue"}}, ["'Helvetica Neue'", "subtitle_font"]),
        ({"landscape": {"text": {"tpo": 0.1}}}, ["'landscape.text.tpo'", "landscape.text.top"]),
    ],
)
def test_a_template_mistake_names_the_key_and_the_fix(template, words):
    with pytest.raises(TemplateError) as caught:
        ss.load_template(template)
    message = str(caught.value)
    for word in words:
        assert word in message, message
    assert "\n" not in message


def test_a_file_that_is_not_a_font_is_refused(tmp_path: Path):
    (tmp_path / "Brand.otf").write_text("not a font", encoding="utf-8")
    with pytest.raises(TemplateError, match="headline_font .*Brand.otf is not a font file"):
        ss.load_template({"text": {"headline_font": str(tmp_path / "Brand.otf")}})


def test_the_cli_says_which_key_of_the_template_is_wrong(tmp_path: Path, iphone_set, capsys):
    template = tmp_path / "typo.toml"
    template.write_text('[palette]\naccent = "#e4572e"\nrythm = ["light"]\n', encoding="utf-8")
    code = main(
        ["design", str(iphone_set), "--out", str(tmp_path / "out"), "--no-ocr"]
        + ["--template", str(template)]
    )
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert f"{template}: unknown template key 'palette.rythm'; did you mean palette.rhythm?" in err
    assert not list((tmp_path / "out").rglob("*.png"))


def test_the_built_in_templates_pass_their_own_checks():
    for name in ("default", "spotlight"):
        template = ss.load_template(name)
        assert template["device"]["model"] == "iphone-17-pro"
        assert template["landscape"]["device"]["bleed"] is False
