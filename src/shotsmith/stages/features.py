"""extract_features: what each screen shows (intent, phrase, keywords) and the set's colours.

Per screenshot the stage decides a *screen intent* from a broad vocabulary
(:data:`INTENTS`): from the screen name first, then the visible text (the DOM text
when the capture knew it, else OCR through Tesseract when installed), with the App
Store category as context. It writes a short noun phrase of what the screen offers
and up to eight salient keywords. From the pixels it writes each screenshot's colours,
one accent colour for the whole set and whether the set's UI is mostly dark.

Every image is decoded once (in two worker threads; decoding and the tesseract
subprocess both release the GIL), reduced to half size, analysed and dropped: no
pixels stay in the frame.
"""

from __future__ import annotations

import re
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pandas as pd
from PIL import Image

from .. import ocr as ocr_mod
from ..color import DEFAULT_ACCENT, accent_of, image_colors, is_dark_image
from ..columns import (
    APP_ID,
    DOMAIN_CATEGORY,
    FEATURES_ACCENT,
    FEATURES_COLORS,
    FEATURES_DARK_UI,
    FEATURES_INTENT,
    FEATURES_KEYWORDS,
    FEATURES_PHRASE,
    FEATURES_TEXT,
    FEATURES_TEXT_SOURCE,
    IMAGE,
    LOCALE,
    POSITION,
    PROJECT_NAME,
    SCREEN,
    SCREEN_TEXT,
    stage,
)
from ..errors import ShotsmithError
from ..io import open_image

# --------------------------------------------------------------------------------------
# Intent vocabulary
# --------------------------------------------------------------------------------------

#: intent -> words and two-word phrases of a screen name that say it (singular forms;
#: plural names are singularised before matching). Weight 2 words are decisive verbs or
#: nouns ("search", "checkout"); weight 1 words are weaker hints ("find", "flight").
_NAME_LEXICON: dict[str, dict[str, int]] = {
    "overview": {
        "home": 2,
        "dashboard": 2,
        "overview": 2,
        "today": 2,
        "summary": 2,
        "main": 1,
        "hub": 1,
        "my day": 2,
        "wallet": 1,
        "portfolio": 2,
        "account": 0,
        "start": 1,
    },
    "feed": {
        "feed": 2,
        "timeline": 2,
        "discover": 2,
        "explore": 2,
        "story": 1,
        "top story": 2,
        "highlight": 2,
        "trending": 2,
        "for you": 2,
        "headline": 2,
        "topic": 1,
        "daily joke": 2,
        "news": 1,
        "popular": 1,
    },
    "list": {
        "list": 2,
        "task": 2,
        "todo": 2,
        "to do": 2,
        "checklist": 2,
        "project": 1,
        "item": 1,
        "shopping list": 3,
        "backlog": 2,
        "board": 1,
        "problem": 1,
        "request": 1,
    },
    "detail": {
        "detail": 2,
        "product": 1,
        "listing": 2,
        "recipe": 1,
        "entry": 1,
        "show detail": 3,
        "spot detail": 3,
        "plant detail": 3,
        "definition": 2,
        "info": 1,
        "response": 1,
    },
    "search": {
        "search": 3,
        "find": 1,
        "result": 2,
        "filter": 1,
        "browse": 2,
        "lookup": 2,
        "query": 2,
        "search result": 3,
    },
    "stats": {
        "stat": 2,
        "statistic": 2,
        "report": 2,
        "insight": 2,
        "analytic": 2,
        "chart": 2,
        "trend": 2,
        "macro": 2,
        "speed": 1,
        "spending": 1,
        "metric": 2,
        "performance": 1,
        "usage": 1,
    },
    "leaderboard": {"leaderboard": 3, "standing": 3, "ranking": 3, "rank": 2, "matchup": 2},
    "scores": {
        "score": 2,
        "live score": 3,
        "fixture": 2,
        "match": 1,
        "live": 1,
        "box score": 3,
        "game day": 2,
    },
    "calendar": {
        "calendar": 3,
        "schedule": 3,
        "agenda": 3,
        "planner": 2,
        "event": 1,
        "shift": 2,
        "itinerary": 2,
        "week": 1,
        "month": 1,
        "timesheet": 1,
        "upcoming": 1,
    },
    "planning": {
        "budget": 2,
        "plan": 2,
        "meal plan": 3,
        "savings": 1,
        "envelope": 1,
        "routine": 1,
        "mortgage": 0,
    },
    "map": {
        "map": 3,
        "route": 2,
        "navigate": 3,
        "navigation": 3,
        "direction": 2,
        "nearby": 2,
        "location": 2,
        "offline map": 3,
        "find parking": 3,
        "parking": 2,
        "radar": 2,
        "layer": 1,
        "trail": 2,
        "around me": 2,
        "station": 0,
        "store locator": 3,
    },
    "chat": {
        "chat": 3,
        "message": 3,
        "inbox": 2,
        "conversation": 3,
        "dm": 2,
        "league chat": 3,
        "comment": 2,
        "reply": 2,
        "mail": 2,
        "email": 2,
        "messenger": 3,
        "thread": 1,
    },
    "player": {
        "player": 3,
        "now playing": 3,
        "playing": 2,
        "listen": 2,
        "watch": 2,
        "video": 1,
        "radio": 2,
        "podcast": 2,
        "episode": 2,
        "queue": 2,
        "live tv": 3,
        "stream": 2,
        "station": 1,
        "track": 1,
    },
    "camera": {
        "camera": 3,
        "scan": 3,
        "scanner": 3,
        "scan barcode": 3,
        "barcode": 2,
        "qr": 2,
        "identify": 2,
        "capture": 2,
        "lens": 2,
        "snap": 2,
        "record": 1,
    },
    "checkout": {
        "checkout": 3,
        "cart": 3,
        "basket": 3,
        "bag": 2,
        "order": 2,
        "buy": 2,
        "purchase": 2,
        "receipt": 1,
        "pickup": 2,
        "delivery": 2,
    },
    "payments": {
        "payment": 3,
        "pay": 2,
        "transfer": 2,
        "send money": 3,
        "bill": 2,
        "invoice": 2,
        "subscription": 2,
        "split": 1,
        "payout": 2,
        "expense": 1,
    },
    "profile": {
        "profile": 3,
        "account": 2,
        "me": 2,
        "my account": 3,
        "about me": 3,
        "avatar": 2,
        "you": 1,
    },
    "settings": {
        "setting": 3,
        "preference": 3,
        "security": 2,
        "privacy": 2,
        "option": 2,
        "config": 2,
        "environment": 1,
        "permission": 2,
        "appearance": 2,
        "backup": 1,
        "sync": 1,
    },
    "onboarding": {
        "welcome": 3,
        "onboarding": 3,
        "get started": 3,
        "intro": 2,
        "signup": 3,
        "sign up": 3,
        "login": 3,
        "log in": 3,
        "sign in": 3,
        "setup": 2,
        "connect": 1,
        "splash": 2,
        "paywall": 1,
    },
    "goals": {
        "goal": 3,
        "progress": 2,
        "streak": 3,
        "achievement": 3,
        "badge": 3,
        "reward": 2,
        "challenge": 2,
        "quest": 2,
        "milestone": 2,
        "habit": 2,
        "level": 1,
    },
    "editor": {
        "editor": 3,
        "edit": 3,
        "compose": 3,
        "create": 2,
        "create post": 3,
        "draft": 2,
        "canvas": 3,
        "brush": 2,
        "effect": 2,
        "font": 2,
        "mixer": 2,
        "write": 2,
        "new post": 3,
        "studio": 2,
        "crop": 2,
        "adjust": 2,
        "design": 1,
        "note": 1,
        "document": 0,
    },
    "notifications": {
        "notification": 3,
        "alert": 3,
        "reminder": 3,
        "price alert": 3,
        "refill": 2,
        "update": 1,
        "activity feed": 2,
    },
    "booking": {
        "booking": 3,
        "book": 1,
        "ticket": 3,
        "reservation": 3,
        "reserve": 2,
        "boarding pass": 3,
        "flight": 1,
        "hotel": 2,
        "room": 1,
        "choose ride": 3,
        "ride": 2,
        "rental": 2,
        "check in": 2,
        "appointment": 2,
        "visit": 1,
        "trip": 1,
        "stay": 1,
    },
    "library": {
        "library": 3,
        "recipes": 2,
        "collection": 2,
        "folder": 2,
        "document": 2,
        "doc": 2,
        "file": 2,
        "download": 2,
        "gallery": 2,
        "album": 2,
        "playlist": 2,
        "shelf": 2,
        "template": 1,
        "archive": 2,
        "instrument": 1,
    },
    "saved": {
        "saved": 3,
        "favorite": 3,
        "favourite": 3,
        "bookmark": 3,
        "wishlist": 3,
        "like": 1,
        "liked": 2,
        "saved place": 3,
        "watchlist": 3,
    },
    "history": {
        "history": 3,
        "activity": 1,
        "transaction": 2,
        "log": 1,
        "recent": 2,
        "statement": 2,
        "past": 1,
        "timeline": 0,
    },
    "reader": {"reader": 3, "read": 2, "reading": 2, "article": 3, "chapter": 2, "book": 1},
    "learn": {
        "lesson": 3,
        "course": 3,
        "learn": 3,
        "quiz": 3,
        "practice": 2,
        "flashcard": 3,
        "vocabulary": 2,
        "tip": 2,
        "guide": 2,
        "care guide": 3,
        "hint": 2,
        "tutorial": 2,
        "class": 1,
        "word of the": 3,
    },
    "workout": {
        "workout": 3,
        "training": 2,
        "exercise": 2,
        "run": 2,
        "session": 1,
        "yoga": 2,
        "cardio": 2,
        "strength": 2,
        "activity": 1,
        "ride": 0,
    },
    "wellness": {
        "breathe": 3,
        "meditate": 3,
        "meditation": 3,
        "sleep": 2,
        "mindfulness": 3,
        "mood": 2,
        "relax": 2,
        "calm": 1,
    },
    "log": {
        "log": 2,
        "diary": 3,
        "journal": 3,
        "tracker": 2,
        "symptom": 2,
        "check symptom": 3,
        "water": 1,
        "food log": 3,
        "medication": 2,
        "med": 2,
        "entry": 1,
        "timesheet": 2,
    },
    "timer": {
        "timer": 3,
        "stopwatch": 3,
        "countdown": 3,
        "focus": 2,
        "pomodoro": 3,
        "alarm": 2,
        "clock": 2,
        "sleep timer": 3,
    },
    "people": {
        "friend": 3,
        "group": 2,
        "team": 2,
        "community": 3,
        "member": 2,
        "contact": 2,
        "people": 2,
        "follower": 2,
        "following": 2,
        "client": 2,
        "my team": 3,
        "connection": 2,
        "family": 2,
        "match": 1,
    },
    "shop": {
        "shop": 3,
        "store": 2,
        "deal": 2,
        "catalog": 2,
        "catalogue": 2,
        "menu": 2,
        "market": 1,
        "marketplace": 3,
        "offer": 2,
        "category": 1,
        "department": 2,
        "products": 2,
    },
    "forecast": {
        "forecast": 3,
        "hourly": 3,
        "daily": 1,
        "10 day": 3,
        "weather": 2,
        "condition": 2,
        "air quality": 3,
        "uv": 2,
        "precipitation": 2,
    },
    "tools": {
        "calculator": 3,
        "convert": 3,
        "converter": 3,
        "currency": 2,
        "unit": 1,
        "mortgage calculator": 3,
        "tool": 2,
        "terminal": 2,
        "git": 2,
        "measure": 2,
        "translate": 2,
        "translator": 2,
        "flashlight": 2,
        "speed test": 3,
    },
    "play": {
        "play": 2,
        "game": 2,
        "level select": 3,
        "battle": 3,
        "puzzle": 3,
        "hero": 2,
        "booster": 2,
        "arena": 3,
        "lobby": 2,
        "gameplay": 3,
        "quest": 1,
    },
    "share": {"share": 3, "export": 3, "invite": 3, "publish": 3, "upload": 2, "send": 1},
}

#: Every intent the stage can produce ("feature" when nothing said more).
INTENTS: tuple[str, ...] = tuple(_NAME_LEXICON) + ("feature",)

#: (word, category) -> intent: a word that means something else in that category.
_DOMAIN_OVERRIDES: dict[tuple[str, str], str] = {
    ("filter", "Photo & Video"): "editor",
    ("filter", "Graphics & Design"): "editor",
    ("match", "Sports"): "scores",
    ("match", "Games"): "play",
    ("match", "Lifestyle"): "people",
    ("match", "Social Networking"): "people",
    ("market", "Finance"): "stats",
    ("market", "Shopping"): "shop",
    ("track", "Music"): "library",
    ("track", "Health & Fitness"): "log",
    ("session", "Health & Fitness"): "workout",
    ("session", "Education"): "learn",
    ("station", "Music"): "player",
    ("station", "Navigation"): "map",
    ("store", "Navigation"): "map",
    ("receipt", "Finance"): "camera",
    ("activity", "Health & Fitness"): "workout",
    ("activity", "Social Networking"): "notifications",
    ("visit", "Medical"): "booking",
    ("visit", "Lifestyle"): "calendar",
    ("trip", "Travel"): "booking",
    ("trip", "Navigation"): "map",
    ("ride", "Health & Fitness"): "workout",
    ("ride", "Sports"): "workout",
    ("menu", "Food & Drink"): "shop",
    ("book", "Books"): "reader",
    ("book", "Travel"): "booking",
    ("note", "Productivity"): "editor",
    ("plan", "Health & Fitness"): "workout",
    ("portfolio", "Graphics & Design"): "library",
    ("portfolio", "Photo & Video"): "library",
    ("design", "Graphics & Design"): "editor",
    ("result", "Sports"): "scores",
    ("result", "Medical"): "history",
    ("story", "Magazines & Newspapers"): "feed",
    ("story", "News"): "feed",
    ("level", "Games"): "play",
    ("challenge", "Games"): "play",
    ("record", "Medical"): "history",
    ("log", "Health & Fitness"): "log",
    ("inbox", "Productivity"): "list",
    ("note", "Medical"): "detail",
    ("draft", "Sports"): "planning",
    ("recipes", "Food & Drink"): "library",
    ("recipe", "Food & Drink"): "detail",
}

#: Words in visible text (not the name) that hint at an intent; chrome words that sit
#: on every screen (tab bars: "Home", "Search", "Profile", "Settings") are left out.
_TEXT_CUES: dict[str, tuple[str, ...]] = {
    "stats": (
        "average",
        "avg",
        "total spent",
        "income",
        "trend",
        "this week",
        "last month",
        "vs last",
        "chart",
        "report",
        "insights",
        "breakdown",
        "spent",
    ),
    "calendar": (
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "all day",
        "agenda",
    ),
    "checkout": (
        "subtotal",
        "shipping",
        "place order",
        "checkout",
        "promo code",
        "add to cart",
        "cart",
        "delivery fee",
        "order total",
    ),
    "payments": (
        "pay now",
        "due date",
        "amount due",
        "transfer",
        "iban",
        "invoice",
        "autopay",
        "bill",
    ),
    "chat": ("typing", "delivered", "message", "reply", "seen", "sent"),
    "map": ("directions", "route", "arrive", "eta", "nearby", "mi away", "km away"),
    "player": (
        "now playing",
        "shuffle",
        "repeat",
        "lyrics",
        "up next",
        "episode",
        "playlist",
        "queue",
    ),
    "settings": (
        "dark mode",
        "appearance",
        "privacy",
        "sign out",
        "log out",
        "version",
        "notifications",
        "language",
        "preferences",
    ),
    "profile": ("followers", "following", "edit profile", "member since", "my posts"),
    "onboarding": (
        "get started",
        "create account",
        "sign in",
        "continue with",
        "welcome",
        "sign up",
        "skip",
    ),
    "notifications": ("ago", "reminder", "alert", "mark all as read", "notifications"),
    "booking": (
        "departure",
        "arrival",
        "check-in",
        "check-out",
        "guests",
        "passengers",
        "seat",
        "gate",
        "nights",
        "book now",
        "reserve",
    ),
    "forecast": (
        "humidity",
        "wind",
        "feels like",
        "precipitation",
        "uv index",
        "sunrise",
        "sunset",
        "forecast",
        "°",
    ),
    "workout": ("reps", "sets", "bpm", "kcal", "calories", "pace", "heart rate", "workout"),
    "goals": (
        "streak",
        "goal",
        "days in a row",
        "achievement",
        "badge",
        "level up",
        "milestone",
        "progress",
    ),
    "search": ("results", "recent searches", "filters", "sort by"),
    "list": ("due", "overdue", "completed", "tasks", "to do", "add task", "tomorrow"),
    "editor": ("undo", "redo", "brush", "layers", "opacity", "crop", "filters", "draft"),
    "camera": ("scan", "point your camera", "align", "barcode", "qr code"),
    "learn": ("lesson", "quiz", "correct", "practice", "course", "level"),
    "reader": ("chapter", "min read", "pages", "continue reading"),
    "feed": ("for you", "trending", "following", "stories", "latest"),
    "history": ("transactions", "history", "yesterday", "pending"),
    "library": ("library", "albums", "folders", "collections", "downloads"),
    "shop": ("add to bag", "in stock", "new arrivals", "shop", "menu", "products"),
    "scores": ("final", "half time", "quarter", "kick-off", "vs", "live"),
    "wellness": ("breathe", "inhale", "exhale", "meditation", "sleep"),
    "timer": ("start timer", "pause", "resume", "lap", "remaining"),
}

#: Tab-bar and navigation labels: two of them in one line make it navigation, not a title.
_CHROME = frozenset(
    {
        "home",
        "search",
        "profile",
        "setting",
        "account",
        "me",
        "explore",
        "library",
        "inbox",
        "notification",
        "activity",
        "more",
        "discover",
        "favorite",
        "saved",
        "today",
        "feed",
        "message",
        "cart",
        "shop",
    }
)

#: Noun for "what the app is about" per category, used when a screen name is generic.
_DOMAIN_THINGS: dict[str, str] = {
    "Books": "books",
    "Business": "your business",
    "Developer Tools": "your code",
    "Education": "lessons",
    "Entertainment": "shows and events",
    "Finance": "your money",
    "Food & Drink": "meals",
    "Games": "the game",
    "Graphics & Design": "designs",
    "Health & Fitness": "workouts",
    "Lifestyle": "everyday life",
    "Magazines & Newspapers": "stories",
    "Medical": "health records",
    "Music": "music",
    "Navigation": "routes",
    "News": "news",
    "Photo & Video": "photos and videos",
    "Productivity": "tasks",
    "Reference": "answers",
    "Shopping": "products",
    "Social Networking": "friends",
    "Sports": "your teams",
    "Travel": "trips",
    "Utilities": "everyday tools",
    "Weather": "the weather",
}

#: intent -> noun phrase of what such a screen offers ({s}: the screen's subject).
_PHRASES: dict[str, str] = {
    "overview": "{s} at a glance",
    "feed": "a fresh feed of {s}",
    "list": "{s} in one list",
    "detail": "{s} in detail",
    "search": "search across {s}",
    "stats": "reports and trends for {s}",
    "leaderboard": "standings for {s}",
    "scores": "live scores for {s}",
    "calendar": "a calendar of {s}",
    "planning": "plans for {s}",
    "map": "a map of {s}",
    "chat": "messages about {s}",
    "player": "playback of {s}",
    "camera": "scanning {s}",
    "checkout": "checkout for {s}",
    "payments": "payments for {s}",
    "profile": "your profile and {s}",
    "settings": "settings for {s}",
    "onboarding": "a quick start with {s}",
    "goals": "goals and streaks for {s}",
    "editor": "an editor for {s}",
    "notifications": "alerts about {s}",
    "booking": "booking {s}",
    "library": "a library of {s}",
    "saved": "saved {s}",
    "history": "a history of {s}",
    "reader": "reading {s}",
    "learn": "lessons on {s}",
    "workout": "live tracking of {s}",
    "wellness": "calm moments for {s}",
    "log": "a log of {s}",
    "timer": "timers for {s}",
    "people": "people around {s}",
    "shop": "shopping for {s}",
    "forecast": "the forecast for {s}",
    "tools": "tools for {s}",
    "play": "playing {s}",
    "share": "sharing {s}",
    "feature": "{s}",
}

#: (category, intent) -> a more specific phrase when the screen name adds nothing.
_DOMAIN_PHRASES: dict[tuple[str, str], str] = {
    ("Finance", "planning"): "monthly budgets by category",
    ("Finance", "overview"): "balances, bills and budgets at a glance",
    ("Finance", "history"): "every transaction, categorised",
    ("Finance", "stats"): "spending reports by category",
    ("Finance", "payments"): "bills and payments on schedule",
    ("Health & Fitness", "workout"): "live workout tracking",
    ("Health & Fitness", "goals"): "daily streaks and goals",
    ("Health & Fitness", "overview"): "today's activity at a glance",
    ("Travel", "booking"): "flights and stays in one booking flow",
    ("Travel", "calendar"): "a day-by-day trip itinerary",
    ("Travel", "map"): "an offline map of the trip",
    ("Productivity", "list"): "tasks by project and due date",
    ("Productivity", "calendar"): "a calendar of tasks and events",
    ("Weather", "forecast"): "hourly and 10-day forecasts",
    ("Weather", "map"): "a live weather radar",
    ("Music", "player"): "full-screen playback with lyrics",
    ("Food & Drink", "detail"): "step-by-step recipes",
    ("Navigation", "map"): "turn-by-turn directions",
}

# --------------------------------------------------------------------------------------
# Words
# --------------------------------------------------------------------------------------

STOP_WORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "almost",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "aren",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "cannot",
        "could",
        "did",
        "didn",
        "do",
        "does",
        "doesn",
        "doing",
        "don",
        "down",
        "during",
        "each",
        "either",
        "else",
        "ever",
        "every",
        "few",
        "for",
        "from",
        "further",
        "get",
        "gets",
        "got",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "isn",
        "it",
        "its",
        "itself",
        "just",
        "let",
        "like",
        "ll",
        "me",
        "more",
        "most",
        "much",
        "must",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "per",
        "please",
        "re",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "upon",
        "us",
        "ve",
        "very",
        "via",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "within",
        "without",
        "would",
        "yet",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
    ]
)

#: Interface chrome and filler that say nothing about what a screen offers.
UI_WORDS = frozenset(
    [
        "add",
        "back",
        "cancel",
        "close",
        "continue",
        "done",
        "edit",
        "next",
        "ok",
        "okay",
        "previous",
        "save",
        "see",
        "show",
        "skip",
        "submit",
        "tap",
        "view",
        "more",
        "less",
        "new",
        "open",
        "menu",
        "home",
        "search",
        "settings",
        "profile",
        "screen",
        "page",
        "tab",
        "app",
        "apps",
        "button",
        "today",
        "yesterday",
        "tomorrow",
        "am",
        "pm",
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "min",
        "mins",
        "hour",
        "hours",
        "sec",
        "secs",
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "ago",
        "item",
        "items",
        "total",
        "left",
        "right",
        "yes",
        "good",
        "morning",
        "afternoon",
        "evening",
        "hello",
        "hi",
        "welcome",
        "details",
        "detail",
        "info",
        "more",
        "less",
        "all",
        "none",
        "new",
        "list",
        "lists",
    ]
)

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")
_VOWEL = re.compile(r"[aeiouy]")
_HAS_DIGIT_OR_MONEY = re.compile(r"[\d$€£¥%#@]")


def singular(word: str) -> str:
    """Crude English singular, good enough for matching screen names ("budgets" -> "budget")."""
    w = word.lower()
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 5 and w.endswith("zzes"):
        return w[:-3]
    if len(w) > 4 and w.endswith(("ches", "shes", "sses", "xes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is", "news", "ics")):
        return w[:-1]
    return w


def _name_tokens(screen: str) -> list[str]:
    words = re.findall(r"[a-z0-9]+", str(screen or "").lower().replace("-", " "))
    return [singular(w) if not w.isdigit() else w for w in words]


def _plausible_word(token: str) -> bool:
    """Keep real-looking words; drop OCR noise like 'sSyol', 'lll' or 'e@'."""
    core = token.strip("'’-")
    if len(core) < 3 or len(core) > 18:
        return False
    if not (core.islower() or core.istitle() or core.isupper()):
        return False
    low = core.lower()
    if not _VOWEL.search(low) or re.search(r"(.)\1\1", low):
        return False
    return not re.search(r"[bcdfghjklmnpqrstvwxz]{6,}", low)  # no 6 consonants in a row


def keywords_of(screen: str, text: str, *, limit: int = 8, project: str = "") -> list[str]:
    """Salient words: the screen name's first, then the visible text's by frequency.

    Stop words, interface chrome, numbers, prices and OCR noise are dropped; singular
    and plural forms count once; the app's own name is left out.
    """
    project_words = {w.lower() for w in re.findall(r"[A-Za-z]+", project or "")}
    seen: set[str] = set()
    out: list[str] = []

    def consider(word: str) -> None:
        low = word.lower().strip("'’-").replace("’", "'")
        low = low.removesuffix("'s")
        key = singular(low)
        if (
            key in seen
            or low in STOP_WORDS
            or low in UI_WORDS
            or key in UI_WORDS
            or low in project_words
            or len(low) < 3
        ):
            return
        seen.add(key)
        out.append(low)

    for word in re.findall(r"[A-Za-z]+", str(screen or "")):
        if not re.fullmatch(r"screen|image|shot|screenshot", word.lower()):
            consider(word)
    counts: Counter[str] = Counter()
    first_at: dict[str, int] = {}
    display: dict[str, str] = {}
    for line_no, line in enumerate((text or "").splitlines()):
        for raw in line.split():
            if _HAS_DIGIT_OR_MONEY.search(raw):
                continue
            for tok in _TOKEN.findall(raw):
                if not _plausible_word(tok):
                    continue
                low = tok.lower()
                key = singular(low.strip("'’-"))
                counts[key] += 1
                first_at.setdefault(key, line_no)
                display.setdefault(key, low)
    for key in sorted(counts, key=lambda k: (-counts[k], first_at[k])):
        if len(out) >= limit:
            break
        consider(display[key])
    return out[:limit]


# --------------------------------------------------------------------------------------
# Intent
# --------------------------------------------------------------------------------------


def _match_name(
    tokens: list[str], domain: str | None, raw: list[str] | None = None
) -> tuple[str | None, set[int]]:
    """Best intent named by these tokens, and which token positions said it.

    ``tokens`` are singular forms; ``raw`` the words as written (a plural can mean
    something else: "products" is a shop, "product" a detail page).
    """
    raw = raw if raw is not None and len(raw) == len(tokens) else tokens
    candidates: list[tuple[int, int, str, set[int]]] = []  # (weight, -position, intent, span)
    for n in (3, 2, 1):
        for i in range(len(tokens) - n + 1):
            span = set(range(i, i + n))
            for gram in dict.fromkeys((" ".join(raw[i : i + n]), " ".join(tokens[i : i + n]))):
                override = _DOMAIN_OVERRIDES.get((gram, domain or ""))
                if override:
                    candidates.append((3 + n, -i, override, span))
                    break
                hits = [
                    (intent, words[gram])
                    for intent, words in _NAME_LEXICON.items()
                    if words.get(gram)
                ]
                for intent, w in hits:
                    candidates.append((w + (n - 1) * 2, -i, intent, span))
                if hits:
                    break
    if not candidates:
        return None, set()
    candidates.sort(key=lambda c: (c[0], c[1]), reverse=True)
    winner = candidates[0][2]
    used: set[int] = set()
    for c in candidates:  # every token that pointed at the winning intent
        if c[2] == winner:
            used |= c[3]
    return winner, used


def _raw_tokens(screen: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", str(screen or "").lower().replace("-", " "))


def _match_text(title: str, text: str, domain: str | None) -> str | None:
    """Intent from visible text: the title like a name, else content cues (≥ 2 hits)."""
    tokens = _name_tokens(title)
    # a row of tab-bar labels ("Home Search Profile") is not a title
    if title and len(tokens) <= 6 and sum(t in _CHROME for t in tokens) < 2:
        intent, _ = _match_name(tokens, domain, _raw_tokens(title))
        if intent:
            return intent
    low = " " + re.sub(r"\s+", " ", (text or "").lower()) + " "
    scores: Counter[str] = Counter()
    for intent, cues in _TEXT_CUES.items():
        for cue in cues:
            if re.search(r"(?<![a-z])" + re.escape(cue) + r"(?![a-z])", low):
                scores[intent] += 1
    if not scores:
        return None
    ranked = scores.most_common(2)
    top, hits = ranked[0]
    if hits >= 2 and (len(ranked) == 1 or hits > ranked[1][1]):
        return top
    return None


def screen_intent(
    screen: str,
    text: str = "",
    *,
    domain: str | None = None,
    position: int | None = None,
    title: str = "",
) -> str:
    """The intent of one screen: its name first, then its visible text, then a default."""
    intent, _ = _match_name(_name_tokens(screen), domain, _raw_tokens(screen))
    if intent:
        return intent
    if not title and text:
        title = next((ln for ln in text.splitlines() if sum(c.isalpha() for c in ln) >= 3), "")
    intent = _match_text(title, text, domain)
    if intent:
        return intent
    return "overview" if position == 0 else "feature"


def screen_subject(screen: str, domain: str | None = None) -> str:
    """What a screen name is about once its intent words are removed ("flights")."""
    raw = _raw_tokens(screen)
    tokens = [singular(w) for w in raw]
    _, used = _match_name(tokens, domain, raw)
    keep = [
        w
        for i, w in enumerate(raw)
        if i not in used
        and w not in STOP_WORDS
        and w not in UI_WORDS
        and not w.isdigit()
        and w not in ("screen", "tab", "page", "view", "my", "select")
    ]
    return " ".join(keep)


def screen_phrase(intent: str, screen: str, domain: str | None) -> str:
    subject = screen_subject(screen, domain)
    if not subject and (domain, intent) in _DOMAIN_PHRASES:
        return _DOMAIN_PHRASES[(domain, intent)]
    things = subject or _DOMAIN_THINGS.get(domain or "", "")
    if not things:
        name = " ".join(re.findall(r"[a-z]+", str(screen or "").lower()))
        things = name if name and not name.startswith("screen") else "the app"
    return _PHRASES.get(intent, "{s}").format(s=things)


# --------------------------------------------------------------------------------------
# The stage
# --------------------------------------------------------------------------------------


@dataclass
class _Pixels:
    colors: list[tuple[str, float]]
    dark: bool
    ocr: ocr_mod.OCRResult | None = None


def _ocr_mode(ocr: bool | str) -> bool | None:
    """True: required; None: when installed; False: off."""
    if ocr is True or (
        isinstance(ocr, str) and ocr.lower() in ("on", "true", "always", "required")
    ):
        return True
    if (
        ocr is False
        or ocr is None
        or (isinstance(ocr, str) and ocr.lower() in ("off", "false", "never", "no"))
    ):
        return False
    if isinstance(ocr, str) and ocr.lower() == "auto":
        return None
    raise ShotsmithError(
        f"extract_features: ocr={ocr!r} is not understood; use 'auto', True or False."
    )


def _analyse(refs: list, want_ocr: list[bool], lang: str, binary: str | None) -> list[_Pixels]:
    """Decode each image once, measure colours, then OCR (one tesseract call) those that need it."""
    out: list[_Pixels] = []
    prepared: list[Image.Image] = []
    prepared_at: list[int] = []
    for ref, need in zip(refs, want_ocr):
        img = open_image(ref)  # InputImageError names the image when it cannot be decoded
        half = img.reduce(2) if min(img.size) >= 400 else img
        del img
        dark = is_dark_image(half)
        out.append(_Pixels(image_colors(half), dark))
        if need and binary:
            prepared.append(ocr_mod.prepare(half, dark=dark, scale=1))
            prepared_at.append(len(out) - 1)
        del half
    if prepared:
        for i, res in zip(prepared_at, ocr_mod.recognize(prepared, lang=lang, binary=binary)):
            out[i].ocr = res
    return out


@stage(
    "extract_features",
    requires=(APP_ID, POSITION, SCREEN, IMAGE),
    provides=(
        FEATURES_INTENT,
        FEATURES_PHRASE,
        FEATURES_KEYWORDS,
        FEATURES_TEXT,
        FEATURES_TEXT_SOURCE,
        FEATURES_COLORS,
        FEATURES_ACCENT,
        FEATURES_DARK_UI,
    ),
    optional=(DOMAIN_CATEGORY, SCREEN_TEXT, PROJECT_NAME, LOCALE),
)
def extract_features(
    frame: pd.DataFrame, *, ocr: bool | str = "auto", workers: int = 2, chunk: int = 16
) -> pd.DataFrame:
    """Screen intent, phrase and keywords per row; colours, accent and dark UI per set.

    ``ocr``: ``"auto"`` reads screenshots without DOM text with Tesseract when it is
    installed; ``True`` requires it (error when missing); ``False`` never reads.
    ``workers`` threads decode images and run tesseract side by side.
    """
    mode = _ocr_mode(ocr)
    binary = ocr_mod.tesseract_path() if mode is not False else None
    if mode is True and binary is None:
        ocr_mod.require_tesseract()

    n = len(frame)
    rows = list(range(n))
    refs = frame[IMAGE].tolist()
    dom = [
        str(t) if isinstance(t, str) else ""
        for t in (frame[SCREEN_TEXT].tolist() if SCREEN_TEXT in frame.columns else [""] * n)
    ]
    want = [not t.strip() for t in dom]
    lang = "eng"
    if binary and any(want) and LOCALE in frame.columns:
        locales = frame[LOCALE].dropna().astype(str)
        lang = ocr_mod.language_for(locales.iloc[0] if len(locales) else None)

    # deal rows to workers in chunks; each worker decodes, measures and OCRs its chunk
    per_call = max(1, min(chunk, -(-n // max(1, workers)))) if n else 1
    batches = [rows[i : i + per_call] for i in range(0, n, per_call)]
    pixels: list[_Pixels | None] = [None] * n

    def work(batch: list[int]) -> None:
        res = _analyse([refs[i] for i in batch], [want[i] for i in batch], lang, binary)
        for i, r in zip(batch, res):
            pixels[i] = r

    if len(batches) <= 1 or workers <= 1:
        for b in batches:
            work(b)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(work, batches))

    screens = frame[SCREEN].astype(str).tolist()
    positions = frame[POSITION].tolist()
    domains = frame[DOMAIN_CATEGORY].tolist() if DOMAIN_CATEGORY in frame.columns else [None] * n
    projects = (
        frame[PROJECT_NAME].astype(str).tolist() if PROJECT_NAME in frame.columns else [""] * n
    )

    intents, phrases, keywords, texts, sources, colors = [], [], [], [], [], []
    for i in range(n):
        px = pixels[i]
        domain = domains[i] if isinstance(domains[i], str) else None
        title = ""
        if dom[i].strip():
            text, source = dom[i].strip(), "dom"
        elif mode is False:
            text, source = "", "none (ocr off)"
        elif binary is None:
            text, source = "", "none (tesseract not installed)"
        elif px is None or px.ocr is None:
            text, source = "", "none (not read)"
        elif px.ocr.error:
            text, source = "", f"none (ocr failed: {px.ocr.error})"
        else:
            text, source, title = px.ocr.text, "ocr", px.ocr.title
        intent = screen_intent(screens[i], text, domain=domain, position=positions[i], title=title)
        intents.append(intent)
        phrases.append(screen_phrase(intent, screens[i], domain))
        keywords.append(keywords_of(screens[i], text, project=projects[i]))
        texts.append(text)
        sources.append(source)
        colors.append([c for c, _ in px.colors] if px else [])

    frame[FEATURES_INTENT] = intents
    frame[FEATURES_PHRASE] = phrases
    frame[FEATURES_KEYWORDS] = pd.Series(keywords, index=frame.index, dtype=object)
    frame[FEATURES_TEXT] = texts
    frame[FEATURES_TEXT_SOURCE] = sources
    frame[FEATURES_COLORS] = pd.Series(colors, index=frame.index, dtype=object)

    accent: list[str] = [DEFAULT_ACCENT] * n
    dark_ui: list[bool] = [False] * n
    members_of: dict[object, list[int]] = {}
    for i, app in enumerate(frame[APP_ID].tolist()):
        members_of.setdefault(app, []).append(i)
    for members in members_of.values():
        merged: dict[str, float] = {}  # the same colour in several screenshots adds up
        for i in members:
            for c, share in pixels[i].colors if pixels[i] else ():
                merged[c] = merged.get(c, 0.0) + share / len(members)
        set_accent = accent_of(sorted(merged.items(), key=lambda kv: -kv[1])) or DEFAULT_ACCENT
        is_dark = sum(bool(pixels[i] and pixels[i].dark) for i in members) * 2 > len(members)
        for i in members:
            accent[i], dark_ui[i] = set_accent, is_dark
    frame[FEATURES_ACCENT] = accent
    frame[FEATURES_DARK_UI] = pd.Series(dark_ui, index=frame.index, dtype=bool)
    return frame
