"""detect_domain: the App Store category of each set, from weights learned on real apps.

Why a fitted model and not hand-written rules: word lists tuned by hand score well on the
lists they were written alongside and badly on apps nobody looked at (a music streamer filed
under Books, a party game under Productivity). The weights here are fitted offline by
``scripts/fit_domain_model.py`` -- a regularised multinomial logistic regression -- on
labelled lists of real, well-known App Store apps (``tests/data/domain_apps.csv`` and
``domain_apps_2.csv``) whose test halves were frozen before any model saw them, and shipped
as package data (``data/domain_model.json.gz``, with its provenance: lists, rows,
hyper-parameters, cross-validated and held-out accuracy).

Evidence, per set, each field featurised on its own:

* ``project_name`` -- words (CamelCase split, joined form kept: "PocketBudget" gives
  pocket, budget, pocketbudget) and character n-grams, so an unseen compound
  ("Forecastly") still meets the words it is made of;
* ``bundle_id`` -- its reverse-domain parts minus boilerplate (com, app, ios...);
* ``screen`` names, except those that say nothing about the app (home, search, profile,
  settings...: ``generic_screens`` in the settings), so a folder of screenshots named by
  their place in the app is judged by its name and text;
* visible text -- ``screen_text`` (DOM text), ``features_text`` (what extract_features read,
  DOM or OCR) and the texts of ``features_evidence``. It is the strongest evidence.

Words become per-field features (``name:spotify``, ``text:playlist``, ``screen:now
playing``) plus shared ones (``word:…``, ``char:…``); character n-grams work for every
script (Han, kana and Hangul runs get 1-3 character grams). Each field's block is
normalised on its own, so a long wall of OCR text weighs as much as, not more than, a name.
The settings live in ``data/domain_features.json``.

What the screens are (when extract_features ran first) is weighed beside the model:
the nouns that name each category's screens, telling screen kinds (a conversation), and
*surfaces* -- a config editor, devices and their status, runs and their metrics, a chat --
found from cue words shown together on one screen and counted when several screens agree.
Their points are added to the model's log-odds (``data/category_screens.json``), so a set
whose screens plainly are a developer's or a device manager's is filed by what they are,
whatever listing words its name shares with another category; the signals say which
screens and words did it ("screens show devices and their status (offline, device) on 3 of
4 → Utilities").

Outputs, set-level: the best category, a calibrated probability (temperature fitted on
cross-validated predictions of the training half), the runner-up, the features that moved
the decision most (``name token 'spotify' → Music (+1.20)``), and ``domain_confident``: whether the
probability clears the threshold chosen by cross-validation on the training half. Below it,
later stages keep copy and palette neutral rather than be confidently wrong. A set with no
usable evidence is filed under :data:`FALLBACK_CATEGORY`. Offline and deterministic.

The parts, one job each:

============  ==================================================================
module        job
============  ==================================================================
``tokens``    the featuriser's settings; words, phrases and n-grams of any script
``evidence``  what one set shows (:class:`Evidence`) and its feature vector
``model``     the categories, the shipped weights and their loading
``screens``   what the screens are: nouns, kinds and surfaces (``category_screens.json``)
``predict``   one set's category, confidence, runner-up and signals
``stage``     :func:`detect_domain`, the stage over a frame
============  ==================================================================
"""

from .model import CATEGORIES, FALLBACK_CATEGORY
from .predict import DomainPrediction, predict_domain, score_domains
from .stage import detect_domain

__all__ = [
    "CATEGORIES",
    "FALLBACK_CATEGORY",
    "DomainPrediction",
    "detect_domain",
    "predict_domain",
    "score_domains",
]
