"""Store text is written, not concatenated: sentences about the app and features as keywords."""

from __future__ import annotations

import re

from shotsmith.stages.copy.evidence import ScreenEvidence
from shotsmith.stages.copy.store_text import store_text


def screen(name: str, subject: str, **parts) -> ScreenEvidence:
    return ScreenEvidence(screen=name, title=subject, subject=subject, kind="list", **parts)


def test_keywords_are_features_never_a_rows_values_or_its_labels():
    evidence = [
        screen(
            "bills",
            "Bills",
            # a table's header row: who paid, for whom, when; and the rows' values
            fields=["Whom", "Added", "Category", "Balance"],
            labels=["Souvenirs", "Seafood lunch", "Whole Foods Market", "Expenses"],
        ),
        screen("stats", "Statistics", labels=["Expenses", "Paid", "Ana Ruiz"]),
        screen("settle", "Settlements", labels=["Direct"]),
    ]
    text = store_text(
        project="Split It",
        locale="en-US",
        tagline="Every bill in one place",
        headlines=["Every bill in one place", "Statistics at a glance", "Settle up"],
        subtitles=["See who paid for what.", "See paid against expenses.", "Pay back in a tap."],
        evidence=evidence,
        about="Split shared expenses with friends on trips.",
    )
    keywords = text.keywords.split(",")
    assert {"bills", "statistics", "settlements"} <= set(keywords), keywords
    assert {"category", "balance"} <= set(keywords), keywords  # fields that name a feature
    assert "expenses" in keywords, keywords  # on two screens, and in the user's words
    for value in ("whom", "added", "souvenirs", "seafood", "whole", "foods", "ana", "ruiz"):
        assert value not in keywords, (value, keywords)
    assert "direct" not in keywords  # a label of one screen only: a row's value
    assert len(text.keywords) <= 100


def test_promotional_text_is_at_most_two_sentences_even_with_one_feature():
    evidence = [screen("trips", "Bookings"), screen("home", "")]
    subtitles = [
        "Everything from Lisbon to Kyoto in one place.",
        "See all 2,318 reviews at a glance.",
        "Search in Kyoto in a few taps.",
        "See Yasaka Shrine and temples at a glance.",
    ]
    text = store_text(
        project="Wanderly",
        locale="en-US",
        tagline="",
        headlines=["All your bookings in one list"],
        subtitles=subtitles,
        evidence=evidence,
    )
    sentences = re.findall(r"[^.]+\.", text.promotional_text)
    assert sentences[0] == "Wanderly keeps all your bookings in one place.", text.promotional_text
    assert len(sentences) == 2, text.promotional_text
    assert len(text.promotional_text) <= 170


def test_keywords_leave_out_titles_of_posts_one_screens_links_and_names():
    """A post's title ("Reader questions: boots, buses and bad weather"), a row of one
    screen's links that reads like a menu (a dictionary's matches), a file's name and
    someone's name for their library are what the app holds, not search terms."""
    menu = ["Albums", "Photos", "Berger Family Photos", "lisbon-sunset.jpg"]
    evidence = [
        screen("posts", "Posts", tabs=menu, headings=["Reader questions: boots and buses"]),
        screen("matches", "Matches", tabs=[*menu, "Light iron", "Light keeper", "Lightning"]),
        screen("albums", "Albums", tabs=menu, headings=["Sea swimming in winter"]),
    ]
    text = store_text(
        project="Harbour",
        locale="en-US",
        tagline="",
        headlines=["Every post in one place", "Your matches", "All your albums"],
        subtitles=["", "", ""],
        evidence=evidence,
    )
    keywords = text.keywords.split(",")
    assert {"posts", "albums", "photos"} <= set(keywords), keywords
    for content in ("boots", "buses", "iron", "keeper", "lightning", "berger", "lisbon"):
        assert content not in keywords, (content, keywords)
    assert not [k for k in keywords if k in ("swimming", "winter", "questions")], keywords


def test_the_opening_sentence_names_three_features_at_most_none_with_its_own_and():
    evidence = [
        screen("surveys", "Surveys"),
        screen("visits", "Visits"),
        screen("books", "Books and e-books"),
        screen("poll", "Opening hours poll"),
        screen("staff", "Staff rota"),
    ]
    text = store_text(
        project="Lakeside",
        locale="en-US",
        tagline="Browse all your surveys",
        headlines=["Browse all your surveys", "Your visits", "Books", "Poll", "Staff"],
        subtitles=["", "", "", "", ""],
        evidence=evidence,
    )
    opening = text.promotional_text.split(".")[0]
    assert opening.startswith("Lakeside brings your"), text.promotional_text
    assert opening.count(" and ") == 1, opening
    assert opening.count(",") <= 1, opening


def test_keywords_are_things_never_a_buttons_verb_or_a_word_that_only_describes():
    # a menu the app shows on every screen: "Save" and "Maximize" are what a user
    # presses, "Recently", "Edited" and "Failed" describe rows
    menu = ["Save", "Maximize", "Recently", "Edited", "Spending", "Failed"]
    evidence = [
        screen("templates", "Templates", tabs=menu, headings=["Recently edited", "Failed runs"]),
        screen("reports", "Reports", tabs=menu),
        screen("budget", "Budget", tabs=menu),
    ]
    text = store_text(
        project="Ledgerly",
        locale="en-US",
        tagline="Every template in one place",
        headlines=["Every template in one place", "Reports at a glance", "Your budget"],
        subtitles=["See all 4 templates.", "See spending by month.", "See your budget."],
        evidence=evidence,
    )
    keywords = text.keywords.split(",")
    assert {"templates", "reports", "budget"} <= set(keywords), keywords
    assert {"spending", "runs"} <= set(keywords), keywords  # "spending": an activity
    for word in ("save", "maximize", "recently", "edited", "failed"):
        assert word not in keywords, (word, keywords)


def test_the_opening_sentence_names_features_never_a_path_a_page_or_the_apps_viewer():
    evidence = [
        screen("repositories", "Repositories"),
        screen("documents", "laptop/Documents"),  # a folder's path
        screen("viewer", "Mirador viewer"),  # the app's own name in a feature
        screen("page", "Trip to Porto"),  # a page's name: a place after its first word
        screen("contacts", "contacts sort Name"),  # a column's sort control
        screen("search", "tags:walking"),  # a search's query
        screen("versions", "File versions"),
    ]
    text = store_text(
        project="Mirador",
        locale="en-US",
        tagline="Your repositories",
        headlines=["Your repositories", "Documents", "Viewer", "Porto", "Contacts", "", "Versions"],
        subtitles=["", "", "", "", "", "", ""],
        evidence=evidence,
    )
    opening = text.promotional_text.split(". ")[0]
    assert opening.startswith("Mirador brings your repositories"), opening
    assert "file versions" in opening, opening
    for name in ("laptop", "Documents", "viewer", "Porto", "sort", "walking"):
        assert name not in opening, (name, opening)
