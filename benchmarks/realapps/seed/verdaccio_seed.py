"""Configure Verdaccio and publish a small in-house package catalogue into it.

``config``: writes DATA/config.yaml (local storage, htpasswd auth, no uplinks, so it
never reaches the internet). ``publish``: creates the user through the registry's own
``/-/user`` endpoint and runs ``npm publish`` for every package version, as a team
would. Usage: python verdaccio_seed.py config DATA PORT
              python verdaccio_seed.py publish DATA PORT USER PASSWORD
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

CONFIG = """\
storage: ./storage
plugins: ./plugins
web:
  title: Acme Packages
  gravatar: false
  login: true
  showInfo: true
  showSettings: true
  showFooter: false
auth:
  htpasswd:
    file: ./htpasswd
    max_users: 100
uplinks: {}
packages:
  '@*/*':
    access: $all
    publish: $authenticated
  '**':
    access: $all
    publish: $authenticated
server:
  keepAliveTimeout: 60
log: { type: stdout, format: pretty, level: warn }
"""

AUTHOR = {"name": "Dana Whitfield", "email": "dana@acme.example"}

PACKAGES = [
    {
        "name": "@acme/design-tokens",
        "versions": ["1.0.0", "1.1.0", "2.0.0"],
        "description": "Colours, spacing and type scale shared by every Acme web app.",
        "keywords": ["design-system", "tokens", "css-variables"],
        "dependencies": {},
        "readme": """# @acme/design-tokens

Colours, spacing and typography for Acme products, as CSS variables and a JS object.

## Install

```sh
npm install @acme/design-tokens
```

## Use

```js
import { color, space } from "@acme/design-tokens";
button.style.background = color.brand500;
```

| Token | Value |
|---|---|
| `color.brand500` | `#3358D4` |
| `space.md` | `16px` |
| `font.body` | `Inter, 16px/1.5` |
""",
    },
    {
        "name": "@acme/react-buttons",
        "versions": ["0.9.0", "1.0.0", "1.2.1"],
        "description": "Accessible React buttons, icon buttons and button groups.",
        "keywords": ["react", "button", "accessibility", "ui"],
        "dependencies": {"@acme/design-tokens": "^2.0.0"},
        "readme": """# @acme/react-buttons

Accessible buttons for React 18, styled with `@acme/design-tokens`.

```jsx
import { Button, IconButton } from "@acme/react-buttons";

<Button variant="primary" onClick={save}>Save changes</Button>
```

- Keyboard and screen-reader friendly (WAI-ARIA button pattern)
- Primary, secondary, ghost and danger variants
- Loading state with a spinner
""",
    },
    {
        "name": "invoice-totals",
        "versions": ["1.0.0", "1.0.1", "1.1.0"],
        "description": "Compute invoice line totals, tax and rounding in integer cents.",
        "keywords": ["invoice", "money", "tax", "currency"],
        "dependencies": {},
        "readme": """# invoice-totals

Add up invoice lines without floating-point surprises: everything is integer cents.

```js
const { totals } = require("invoice-totals");
totals([{ qty: 3, unitCents: 1999 }], { taxRate: 0.2 });
// { netCents: 5997, taxCents: 1199, grossCents: 7196 }
```
""",
    },
    {
        "name": "geo-distance-lite",
        "versions": ["2.0.0", "2.1.0"],
        "description": "Great-circle distance and bearing between two coordinates.",
        "keywords": ["geo", "haversine", "distance", "maps"],
        "dependencies": {},
        "readme": """# geo-distance-lite

Haversine distance and initial bearing, no dependencies, 600 bytes gzipped.

```js
import { distanceKm } from "geo-distance-lite";
distanceKm([51.5074, -0.1278], [48.8566, 2.3522]); // 343.5
```
""",
    },
    {
        "name": "@acme/eslint-config",
        "versions": ["3.0.0", "3.1.0"],
        "description": "The ESLint rules every Acme repository extends.",
        "keywords": ["eslint", "eslintconfig", "lint"],
        "dependencies": {},
        "readme": """# @acme/eslint-config

```json
{ "extends": ["@acme/eslint-config"] }
```

Includes the recommended rules, import ordering and React hooks checks.
""",
    },
    {
        "name": "markdown-toc-lite",
        "versions": ["1.0.0"],
        "description": "Generate a table of contents from Markdown headings.",
        "keywords": ["markdown", "toc", "docs"],
        "dependencies": {},
        "readme": """# markdown-toc-lite

```sh
npx markdown-toc-lite README.md
```

Turns `##` and `###` headings into a nested list of links.
""",
    },
]


def write_config(data: Path) -> None:
    (data / "config.yaml").write_text(CONFIG, encoding="utf-8")
    (data / "storage").mkdir(parents=True, exist_ok=True)


def _token(port: int, user: str, password: str) -> str:
    body = json.dumps(
        {"name": user, "password": password, "email": AUTHOR["email"], "type": "user"}
    ).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/-/user/org.couchdb.user:{user}",
        data=body,
        method="PUT",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())["token"]


def publish(data: Path, port: int, user: str, password: str) -> None:
    token = _token(port, user, password)
    registry = f"http://127.0.0.1:{port}/"
    with tempfile.TemporaryDirectory() as scratch:
        npmrc = Path(scratch) / ".npmrc"
        npmrc.write_text(
            f"registry={registry}\n//127.0.0.1:{port}/:_authToken={token}\n"
            "update-notifier=false\nfund=false\naudit=false\n",
            encoding="utf-8",
        )
        for package in PACKAGES:
            for version in package["versions"]:
                folder = Path(scratch) / package["name"].replace("/", "__") / version
                folder.mkdir(parents=True)
                manifest = {
                    "name": package["name"],
                    "version": version,
                    "description": package["description"],
                    "keywords": package["keywords"],
                    "author": AUTHOR,
                    "license": "MIT",
                    "main": "index.js",
                    "homepage": f"https://git.acme.example/web/{package['name'].split('/')[-1]}",
                    "repository": {
                        "type": "git",
                        "url": f"https://git.acme.example/web/{package['name'].split('/')[-1]}",
                    },
                    "dependencies": package["dependencies"],
                    "publishConfig": {"access": "public"},
                }
                (folder / "package.json").write_text(json.dumps(manifest, indent=2))
                (folder / "README.md").write_text(package["readme"], encoding="utf-8")
                (folder / "index.js").write_text(
                    f"module.exports = {{ version: {json.dumps(version)} }};\n"
                )
                subprocess.run(
                    ["npm", "publish", "--userconfig", str(npmrc), "--registry", registry],
                    cwd=folder,
                    check=True,
                )


if __name__ == "__main__":
    command, folder, port_text = sys.argv[1:4]
    if command == "config":
        write_config(Path(folder))
    else:
        publish(Path(folder), int(port_text), sys.argv[4], sys.argv[5])
