"""OCR read in several threads reads what one reading does: a title where the top band
ends is read whole, once; the in-process engines are loaded once, not once per thread;
many images read side by side come back in order."""

from __future__ import annotations

import os
import threading

import pytest
from PIL import Image, ImageDraw, ImageFont

from shotsmith import ocr
from shotsmith.columns import FEATURES_TEXT, FEATURES_TITLE
from shotsmith.stages.features import extract_features

from .conftest import INTER_BOLD, png_bytes
from .stages.features.test_features import frame_of

needs_ocr = pytest.mark.skipif(
    ocr.tesseract_path() is None and not os.environ.get("CI"), reason="no OCR engine"
)
needs_inprocess = pytest.mark.skipif(
    ocr.tesseract_path() != ocr.INPROCESS and not os.environ.get("CI"),
    reason="tesserocr or its language data is not installed",
)

LINES = ["Morning routine", "Weekly budget", "Shared expenses", "Savings goals", "Trip planner"]


def page(top: int) -> Image.Image:
    """A prepared band (grey, dark on light): five lines of words, from ``top`` down."""
    img = Image.new("L", (603, top + 600), 255)
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(INTER_BOLD, 30)  # its letters ~28 px tall
    tops = [top, top + 120, top + 180, top + 300, top + 450]
    for top, text in zip(tops, LINES):
        draw.text((40, top), text, font=font, fill=20)
    return img


@needs_ocr
def test_a_title_the_top_band_cuts_is_read_whole_below_a_picture():
    """A destination's name just where the top band ends, under a hero photo: the deeper
    reading finds it whole (the band below starts a little above the top band's end)."""
    img = Image.new("RGB", (1206, 2622), "white")
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, 1206, 1000), fill=(92, 50, 110))  # a photo: no words in it
    seam = int(2622 * ocr.BAND_BOTTOM)
    body = ImageFont.truetype(INTER_BOLD, 44)
    for i, line in enumerate(["Best time", "Daily budget", "Top experiences"]):
        draw.text((60, seam + 200 + 140 * i), line, font=body, fill="black")
    draw.text((60, seam - 40), "Lisbon, Portugal", font=ImageFont.truetype(INTER_BOLD, 80), fill=0)
    out = extract_features(frame_of([png_bytes(img)], ["place"]), ocr=True)
    assert out[FEATURES_TITLE].iloc[0] == "Lisbon, Portugal"
    text = out[FEATURES_TEXT].iloc[0]
    assert text.count("Lisbon") == 1 and "Daily budget" in text


@needs_inprocess
def test_the_model_is_loaded_once_not_once_per_thread():
    img = page(40)
    ocr.recognize([img], binary=ocr.INPROCESS)  # one engine loaded (or there already)
    loaded = ocr._engines.made
    found = []
    for _ in range(3):  # three threads, one after another: each borrows the same engine
        reader = threading.Thread(target=lambda: found.append(ocr.recognize([img])[0]))
        reader.start()
        reader.join()
    assert ocr._engines.made == loaded
    assert [r.lines for r in found] == [LINES] * 3

    both_reading = threading.Barrier(2, timeout=30)

    def read_while_the_other_does() -> None:
        found.append(ocr.recognize([img], on_page=lambda *_: both_reading.wait())[0])

    readers = [threading.Thread(target=read_while_the_other_does) for _ in range(2)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    assert ocr._engines.made <= loaded + 1  # two at once need two engines, no more
    assert [r.lines for r in found[3:]] == [LINES] * 2


@needs_ocr
def test_many_images_read_side_by_side_come_back_in_order():
    images = [page(top) for top in (20, 150, 300)]
    images.append(Image.new("L", (603, 400), 255))  # nothing to read
    one_call = ocr.recognize(images)
    side_by_side = ocr.recognize_many(images, workers=2)
    assert [r.lines for r in side_by_side] == [r.lines for r in one_call]
    assert [r.words for r in side_by_side] == [10, 10, 10, 0]
