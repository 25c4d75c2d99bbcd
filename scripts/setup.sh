#!/usr/bin/env bash
# Idempotent set-up: the system packages shotsmith uses and a Python environment in .venv.
# Re-running is cheap: nothing is installed twice.
set -euo pipefail
cd "$(dirname "$0")/.."

# fonts: Inter for Latin; Noto core for Arabic, Hebrew, Thai, Devanagari and the other
# scripts; Noto CJK for Chinese, Japanese and Korean (the renderer never draws tofu);
# FriBidi, which Pillow's raqm layout and the right-to-left line order use; ffmpeg, which
# records capture's video (capture --video) and cuts and checks the app preview videos.
SYSTEM_PACKAGES=(chromium ffmpeg fonts-inter fonts-noto-core fonts-noto-cjk libfribidi0 tesseract-ocr tesseract-ocr-eng)
PYTHON=${PYTHON:-python3}

missing=()
if command -v dpkg >/dev/null 2>&1; then
  for pkg in "${SYSTEM_PACKAGES[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    echo "setup: installing system packages: ${missing[*]}"
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo apt-get update -qq
      sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
      echo "setup: shotsmith needs these Debian packages: ${missing[*]}" >&2
      echo "setup: run as root, or: sudo apt-get install ${missing[*]}" >&2
      exit 1
    fi
  fi
else
  echo "setup: not a Debian system; make sure Chromium, the Inter and Noto fonts and tesseract are installed" >&2
fi

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "setup: Python 3.11 or newer is required (found: $("$PYTHON" --version 2>&1))." >&2
  echo "setup: set PYTHON=/path/to/python3.11 and run again." >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.shotsmith-installed
want=$(cat pyproject.toml | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing shotsmith and its Python dependencies into .venv"
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  .venv/bin/python -m pip install -q -e ".[dev]" 2>&1 | grep -v -E "^(WARNING: Location|  )" || true
  .venv/bin/python -c "import shotsmith" || { echo "setup: installing shotsmith failed" >&2; exit 1; }
  echo "$want" > "$stamp"
fi
